// Built by `make bundle` from js/src/l11_the_map.js (the course's MIT licence) and these npm packages:
// d3-array 3.2.5 (ISC):
// Copyright 2010-2026 Mike Bostock
// 
// Permission to use, copy, modify, and/or distribute this software for any purpose
// with or without fee is hereby granted, provided that the above copyright notice
// and this permission notice appear in all copies.
// 
// THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH
// REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND
// FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT,
// INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS
// OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
// TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF
// THIS SOFTWARE.
// d3-color 3.1.1 (ISC):
// Copyright 2010-2026 Mike Bostock
// 
// Permission to use, copy, modify, and/or distribute this software for any purpose
// with or without fee is hereby granted, provided that the above copyright notice
// and this permission notice appear in all copies.
// 
// THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH
// REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND
// FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT,
// INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS
// OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
// TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF
// THIS SOFTWARE.
// d3-format 3.1.3 (ISC):
// Copyright 2010-2026 Mike Bostock
// 
// Permission to use, copy, modify, and/or distribute this software for any purpose
// with or without fee is hereby granted, provided that the above copyright notice
// and this permission notice appear in all copies.
// 
// THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH
// REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND
// FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT,
// INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS
// OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
// TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF
// THIS SOFTWARE.
// d3-interpolate 3.0.2 (ISC):
// Copyright 2010-2026 Mike Bostock
// 
// Permission to use, copy, modify, and/or distribute this software for any purpose
// with or without fee is hereby granted, provided that the above copyright notice
// and this permission notice appear in all copies.
// 
// THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH
// REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND
// FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT,
// INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS
// OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
// TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF
// THIS SOFTWARE.
// d3-scale 4.0.3 (ISC):
// Copyright 2010-2026 Mike Bostock
// 
// Permission to use, copy, modify, and/or distribute this software for any purpose
// with or without fee is hereby granted, provided that the above copyright notice
// and this permission notice appear in all copies.
// 
// THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH
// REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND
// FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT,
// INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS
// OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
// TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF
// THIS SOFTWARE.
// d3-scale-chromatic 3.1.1 (ISC):
// Copyright 2010-2026 Mike Bostock
// 
// Permission to use, copy, modify, and/or distribute this software for any purpose
// with or without fee is hereby granted, provided that the above copyright notice
// and this permission notice appear in all copies.
// 
// THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH
// REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND
// FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT,
// INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS
// OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
// TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF
// THIS SOFTWARE.
// 
// Apache-Style Software License for ColorBrewer software and ColorBrewer Color Schemes
// 
// Copyright 2002 Cynthia Brewer, Mark Harrower, and The Pennsylvania State University
// 
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use
// this file except in compliance with the License. You may obtain a copy of the
// License at
// 
// http://www.apache.org/licenses/LICENSE-2.0
// 
// Unless required by applicable law or agreed to in writing, software distributed
// under the License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR
// CONDITIONS OF ANY KIND, either express or implied. See the License for the
// specific language governing permissions and limitations under the License.
// d3-time 3.1.1 (ISC):
// Copyright 2010-2026 Mike Bostock
// 
// Permission to use, copy, modify, and/or distribute this software for any purpose
// with or without fee is hereby granted, provided that the above copyright notice
// and this permission notice appear in all copies.
// 
// THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH
// REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND
// FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT,
// INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS
// OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
// TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF
// THIS SOFTWARE.
// d3-time-format 4.1.1 (ISC):
// Copyright 2010-2026 Mike Bostock
// 
// Permission to use, copy, modify, and/or distribute this software for any purpose
// with or without fee is hereby granted, provided that the above copyright notice
// and this permission notice appear in all copies.
// 
// THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH
// REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND
// FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT,
// INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS
// OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
// TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF
// THIS SOFTWARE.
var L={blue:"#0072B2",vermillion:"#D55E00",green:"#009E73",purple:"#CC79A7",orange:"#E69F00",sky:"#56B4E9",yellow:"#F0E442",black:"#000000"},ce=L.vermillion,H="#222";var A='"DejaVu Sans", "Helvetica Neue", Arial, sans-serif',W=13,_=12;function J(e,n,r){let t=globalThis.devicePixelRatio||1,o=Math.round(n*t),a=Math.round(r*t);(e.width!==o||e.height!==a)&&(e.width=o,e.height=a,e.style.width=`${n}px`,e.style.height=`${r}px`);let s=e.getContext("2d");return typeof s.reset=="function"?s.reset():Object.assign(s,{globalAlpha:1,lineWidth:1,lineCap:"butt",lineJoin:"miter",textAlign:"start",textBaseline:"alphabetic",fillStyle:"#000",strokeStyle:"#000"}).setLineDash([]),s.setTransform(t,0,0,t,0,0),s.clearRect(0,0,n,r),s}function M(e,n,r,t,{align:o="left",baseline:a="alphabetic",px:s=W,colour:h=H,weight:f=""}={}){e.font=`${f?f+" ":""}${s}px ${A}`,e.fillStyle=h,e.textAlign=o,e.textBaseline=a,e.fillText(n,r,t)}function re(e){let n={...e},r=new Map;return{get:t=>n[t],set(t,o){if(n[t]!==o){n[t]=o;for(let a of r.get(`change:${t}`)||[])a()}},on(t,o){r.has(t)||r.set(t,[]),r.get(t).push(o)},off(t,o){if(!t)return r.clear();r.set(t,(r.get(t)||[]).filter(a=>a!==o))},save_changes(){},send(){}}}var ie=`
.pe-explorer { font-family: ${A}; color: ${H}; max-width: 100%; }
.pe-explorer .pe-controls { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 4px 0 6px; }
.pe-explorer label { display: inline-flex; align-items: center; gap: 8px; font-size: 14px; white-space: nowrap;
  max-width: 100%; }
.pe-explorer label span { min-width: 4.6em; }
/* on a narrow screen a long name or readout wraps rather than run under the slider or out of the box */
.pe-explorer label span, .pe-explorer output { white-space: normal; }
.pe-explorer input[type=range] { width: 170px; min-width: 64px; flex: 0 1 auto; margin: 0; }
.pe-explorer output { display: inline-block; min-width: 4.5em; font-variant-numeric: tabular-nums; }
.pe-explorer canvas { display: block; background: #fff; }
`;function B(e,n){return e.options?e.options.indexOf(n):e.log?Math.log10(n):n}function se(e,n){return e.options?e.options[Math.round(n)]:e.log?Number(Math.pow(10,n).toPrecision(12)):e.integer?Math.round(n):n}function z({model:e,el:n},{name:r,controls:t,constants:o=[],layout:a,draw:s,describe:h,maxWidth:f=860}){let d=globalThis.__pe_explorers=globalThis.__pe_explorers||{};globalThis.__pe_next_id=(globalThis.__pe_next_id||0)+1;let b=`pe-${r}-${globalThis.__pe_next_id}`,p=document.createElement("div");p.className="pe-explorer",p.style.maxWidth=`${f}px`,Object.assign(p.dataset,{explorer:r,peId:b,draws:"0"}),p.dataset.lmSuppressShortcuts="true",p.addEventListener("keydown",i=>i.stopPropagation());let T=document.createElement("style");T.textContent=ie;let m=document.createElement("div");m.className="pe-controls";let E=document.createElement("canvas");E.setAttribute("role","img"),p.append(T,m,E),n.appendChild(p);let c=[...t.map(i=>i.name),...o],y=()=>Object.fromEntries(c.map(i=>[i,e.get(i)])),l=(i,u)=>typeof i=="function"?i(u):i,w={},S={};for(let i of t){let u=document.createElement("label"),g=document.createElement("span");g.textContent=i.label;let k=document.createElement("input");k.type="range",k.name=i.name,k.step=i.step,k.setAttribute("aria-label",i.label);let v=document.createElement("output");u.append(g,k,v),m.appendChild(u),w[i.name]=k,S[i.name]=v,k.addEventListener("input",()=>{let P=l(i.max,y()),O=Number(k.value),oe=O>B(i,P)-i.step?P:se(i,O);e.set(i.name,oe);let j=y();for(let C of t){if(C.options)continue;let Y=l(C.min,j),G=l(C.max,j);j[C.name]>G&&e.set(C.name,G),j[C.name]<Y&&e.set(C.name,Y)}e.save_changes()})}function I(i){for(let u of t){let g=w[u.name],k=String(B(u,l(u.min,i))),v=String(B(u,l(u.max,i)));g.min!==k&&(g.min=k),g.max!==v&&(g.max=v);let P=B(u,i[u.name]);Math.abs(Number(g.value)-P)>1e-9&&(g.value=P);let O=u.format?u.format(i[u.name]):String(i[u.name]);S[u.name].textContent!==O&&(S[u.name].textContent=O),g.getAttribute("aria-valuetext")!==O&&g.setAttribute("aria-valuetext",O)}}let $=0;function N(){let i=performance.now(),u=y();I(u);let g=a($||Math.min(f,n.clientWidth||f)),k=J(E,g.width,g.height),v=s(k,u,g);E.setAttribute("aria-label",h(u,v));let P=performance.now()-i;d[b]={values:u,drawn:v,draw_ms:P},p.dataset.draws=String(Number(p.dataset.draws)+1)}let X=!1,q=()=>{X||(X=!0,queueMicrotask(()=>{X=!1,N()}))};for(let i of t)e.on(`change:${i.name}`,q);let U=()=>{let i=Math.min(f,Math.floor(p.clientWidth||n.clientWidth||f));i>0&&i!==$&&($=i,N())},R=typeof ResizeObserver=="function"?new ResizeObserver(U):null;return R&&R.observe(p),U(),$||N(),()=>{for(let i of t)e.off(`change:${i.name}`,q);R&&R.disconnect(),delete d[b]}}var K="every scheme",ne={"added to x":[L.blue,"#0072B2"],"rotates q, k":[L.vermillion,"#BE5400"],"bias on scores":[L.green,"#008460"]},Q=[L.purple,"#BB4D8A"],D="#737373",Z="v (no scheme in this course rotates or biases it)";function x(e){return e.length?e.join(", "):"(no scheme)"}function ae(e,n,r,t){let o,a;if(e===K)o=Object.keys(n),a="where position enters one attention layer (schemes placed by calling their hooks)";else{let h=r[e];o=h.places.slice();let f=h.parameters?"learned: it has trainable parameters":"fixed: nothing to train";a=`${e}: ${h.places.join(" and ")} (${f})`}let s={};for(let h of Object.keys(n)){if(h===t)continue;let f=o.includes(h),d=e===K?n[h]:n[h].filter(b=>b===e);s[h]=[h,f?x(d):""]}return{scheme:e,heading:a,lit:o.filter(h=>h!==t),notes:s,nowhere:`${x(n[t])}: no scheme, so no hook`,nowhere_lit:o.includes(t)}}function F(e,n,r){let t=[],o="";for(let a of n.split(" ")){let s=o?`${o} ${a}`:a;o&&e.measureText(s).width>r?(t.push(o),o=a):o=s}return t.push(o),t}function le(e){let n=Math.max(300,Math.min(e,860));return n>=600?{width:n,height:262,wide:!0}:{width:n,height:610,wide:!1}}function ee(e,n,r,t,o,{fill:a="#fff",edge:s="#595959",width:h=1.2}={}){e.beginPath(),e.moveTo(n+6,r),e.arcTo(n+t,r,n+t,r+o,6),e.arcTo(n+t,r+o,n,r+o,6),e.arcTo(n,r+o,n,r,6),e.arcTo(n,r,n+t,r,6),e.closePath(),e.fillStyle=a,e.fill(),e.strokeStyle=s,e.lineWidth=h,e.setLineDash([]),e.stroke()}function V(e,n,r,t,o,a="#595959"){let s=Math.atan2(o-r,t-n);e.strokeStyle=a,e.fillStyle=a,e.lineWidth=1,e.setLineDash([]),e.beginPath(),e.moveTo(n,r),e.lineTo(t-6*Math.cos(s),o-6*Math.sin(s)),e.stroke(),e.beginPath(),e.moveTo(t,o),e.lineTo(t-8*Math.cos(s-.4),o-8*Math.sin(s-.4)),e.lineTo(t-8*Math.cos(s+.4),o-8*Math.sin(s+.4)),e.closePath(),e.fill()}function fe(e){let[n,r,t]=[1,3,5].map(o=>parseInt(e.slice(o,o+2),16));return`rgb(${[n,r,t].map(o=>Math.round(255-.3*(255-o))).join(",")})`}function te(e,n,r,t,o,a,s,h){let f=r!==null&&t.lit.includes(r),[d]=r!==null?ne[r]:[null];r===null?ee(e,o,a,s,h):ee(e,o,a,s,h,f?{fill:fe(d),edge:d,width:2.2}:{edge:"#bfbfbf",width:1});let b=n.split(`
`);b.forEach((p,T)=>M(e,p,o+s/2,a+h/2+(T-(b.length-1)/2)*14,{align:"center",baseline:"middle",px:_,colour:r===null||f?"#000":D}))}function he(e,n,r){let t=ae(n.scheme,n.groups,n.effects,n.nowhere_place),o=n.boxes;e.font=`bold ${W}px ${A}`;let a=F(e,t.heading,r.width-16);a.forEach((f,d)=>M(e,f,r.width/2,18+17*d,{align:"center",px:W,weight:"bold"}));let s=f=>t.lit.includes(f)?ne[f][1]:D,h={};if(r.wide){let f=(r.width-16)/o.length,d=.81*f,b=58,p=100,T=c=>8+(c+.5)*f;o.forEach(([c,y],l)=>te(e,c,y,t,T(l)-d/2,p,d,b));for(let c=0;c+1<o.length;c++)V(e,T(c)+d/2+2,p+b/2,T(c+1)-d/2-2,p+b/2);let m=T(2),E=T(o.length-1);e.strokeStyle="#8c8c8c",e.lineWidth=1,e.beginPath(),e.moveTo(m,p-3),e.quadraticCurveTo((m+E)/2,p-46,E-3,p-6),e.stroke(),V(e,E-8,p-12,E,p-3,"#8c8c8c"),M(e,Z,(m+E)/2,p-30,{align:"center",baseline:"bottom",px:_,colour:D}),o.forEach(([,c],y)=>{if(c===null)return;let l=t.notes[c].filter(w=>w);h[c]=l,l.forEach((w,S)=>M(e,w,T(y),p+b+10+S*16,{align:"center",baseline:"top",px:_,colour:s(c)}))}),M(e,t.nowhere,8,r.height-10,{px:_,colour:t.nowhere_lit?Q[1]:D})}else{let T=24+17*a.length+8,m=l=>T+l*62+50/2;o.forEach(([l,w],S)=>te(e,l,w,t,34,m(S)-50/2,96,50));for(let l=0;l+1<o.length;l++)V(e,34+96/2,m(l)+50/2+1,34+96/2,m(l+1)-50/2-1);let E=m(2),c=m(o.length-1);e.strokeStyle="#8c8c8c",e.lineWidth=1,e.beginPath(),e.moveTo(32,E),e.quadraticCurveTo(-6,(E+c)/2,29,c),e.stroke(),V(e,22,c-4,32,c,"#8c8c8c"),e.font=`${_}px ${A}`;let y=r.width-144-6;F(e,Z,y).forEach((l,w)=>M(e,l,144,m(o.length-1)-8+w*15,{baseline:"middle",px:_,colour:D})),o.forEach(([,l],w)=>{if(l===null)return;let S=t.notes[l].filter($=>$);h[l]=S;let I=S.flatMap($=>F(e,$,y));I.forEach(($,N)=>M(e,$,144,m(w)+(N-(I.length-1)/2)*15,{baseline:"middle",px:_,colour:s(l)}))}),F(e,t.nowhere,r.width-16).forEach((l,w)=>M(e,l,8,r.height-26+w*15,{px:_,colour:t.nowhere_lit?Q[1]:D}))}return{...t,notes_drawn:h,boxes:o.map(([f])=>f)}}function pe(e,n){let r=Object.entries(n.notes).filter(([,[,t]])=>t).map(([t,[,o]])=>`${t}: ${o}`);return`One attention layer from the tokens x to the output. ${n.heading}. ${r.join("; ")}.`}function ue({model:e,el:n}){let r=[K,...e.get("schemes")];return z({model:e,el:n},{name:"attention-layer",controls:[{name:"scheme",label:"scheme",options:r,min:r[0],max:r[r.length-1],step:1}],constants:["schemes","groups","effects","boxes","nowhere_place"],layout:le,draw:he,describe:pe})}var Ee={render:ue};export{K as EVERY,Ee as default,ae as layerView,re as stubModel};
