// Built by `make bundle` from js/src/l05_rotation_matrix.js (the course's MIT licence) and these npm packages:
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
// d3-path 3.1.1 (ISC):
// Copyright 2015-2026 Mike Bostock
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
// d3-shape 3.2.1 (ISC):
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
function ht(t){return Math.abs(t=Math.round(t))>=1e21?t.toLocaleString("en").replace(/,/g,""):t.toString(10)}function R(t,n){if(!isFinite(t)||t===0)return null;var o=(t=n?t.toExponential(n-1):t.toExponential()).indexOf("e"),e=t.slice(0,o);return[e.length>1?e[0]+e.slice(2):e,+t.slice(o+1)]}function mt(t){return t=R(Math.abs(t)),t?t[1]:NaN}function ut(t,n){return function(o,e){for(var r=o.length,a=[],f=0,m=t[0],s=0;r>0&&m>0&&(s+m+1>e&&(m=Math.max(1,e-s)),a.push(o.substring(r-=m,r+m)),!((s+=m+1)>e));)m=t[f=(f+1)%t.length];return a.reverse().join(n)}}function dt(t){return function(n){return n.replace(/[0-9]/g,function(o){return t[+o]})}}var ct=/^(?:(.)?([<>=^]))?([+\-( ])?([$#])?(0)?(\d+)?(,)?(\.\d+)?(~)?([a-z%])?$/i;function K(t){if(!(n=ct.exec(t)))throw new Error("invalid format: "+t);var n;return new x({fill:n[1],align:n[2],sign:n[3],symbol:n[4],zero:n[5],width:n[6],comma:n[7],precision:n[8]&&n[8].slice(1),trim:n[9],type:n[10]})}K.prototype=x.prototype;function x(t){this.fill=t.fill===void 0?" ":t.fill+"",this.align=t.align===void 0?">":t.align+"",this.sign=t.sign===void 0?"-":t.sign+"",this.symbol=t.symbol===void 0?"":t.symbol+"",this.zero=!!t.zero,this.width=t.width===void 0?void 0:+t.width,this.comma=!!t.comma,this.precision=t.precision===void 0?void 0:+t.precision,this.trim=!!t.trim,this.type=t.type===void 0?"":t.type+""}x.prototype.toString=function(){return this.fill+this.align+this.sign+this.symbol+(this.zero?"0":"")+(this.width===void 0?"":Math.max(1,this.width|0))+(this.comma?",":"")+(this.precision===void 0?"":"."+Math.max(0,this.precision|0))+(this.trim?"~":"")+this.type};function pt(t){t:for(var n=t.length,o=1,e=-1,r;o<n;++o)switch(t[o]){case".":e=r=o;break;case"0":e===0&&(e=o),r=o;break;default:if(!+t[o])break t;e>0&&(e=0);break}return e>0?t.slice(0,e)+t.slice(r+1):t}var W;function gt(t,n){var o=R(t,n);if(!o)return W=void 0,t.toPrecision(n);var e=o[0],r=o[1],a=r-(W=Math.max(-8,Math.min(8,Math.floor(r/3)))*3)+1,f=e.length;return a===f?e:a>f?e+new Array(a-f+1).join("0"):a>0?e.slice(0,a)+"."+e.slice(a):"0."+new Array(1-a).join("0")+R(t,Math.max(0,n+a-1))[0]}function J(t,n){var o=R(t,n);if(!o)return t+"";var e=o[0],r=o[1];return r<0?"0."+new Array(-r).join("0")+e:e.length>r+1?e.slice(0,r+1)+"."+e.slice(r+1):e+new Array(r-e.length+2).join("0")}var Q={"%":(t,n)=>(t*100).toFixed(n),b:t=>Math.round(t).toString(2),c:t=>t+"",d:ht,e:(t,n)=>t.toExponential(n),f:(t,n)=>t.toFixed(n),g:(t,n)=>t.toPrecision(n),o:t=>Math.round(t).toString(8),p:(t,n)=>J(t*100,n),r:J,s:gt,X:t=>Math.round(t).toString(16).toUpperCase(),x:t=>Math.round(t).toString(16)};function tt(t){return t}var nt=Array.prototype.map,et=["y","z","a","f","p","n","\xB5","m","","k","M","G","T","P","E","Z","Y"];function yt(t){var n=t.grouping===void 0||t.thousands===void 0?tt:ut(nt.call(t.grouping,Number),t.thousands+""),o=t.currency===void 0?"":t.currency[0]+"",e=t.currency===void 0?"":t.currency[1]+"",r=t.decimal===void 0?".":t.decimal+"",a=t.numerals===void 0?tt:dt(nt.call(t.numerals,String)),f=t.percent===void 0?"%":t.percent+"",m=t.minus===void 0?"\u2212":t.minus+"",s=t.nan===void 0?"NaN":t.nan+"";function d(h,g){h=K(h);var w=h.fill,S=h.align,E=h.sign,T=h.symbol,p=h.zero,_=h.width,k=h.comma,P=h.precision,I=h.trim,M=h.type;M==="n"?(k=!0,M="g"):Q[M]||(P===void 0&&(P=12),I=!0,M="g"),(p||w==="0"&&S==="=")&&(p=!0,w="0",S="=");var D=(g&&g.prefix!==void 0?g.prefix:"")+(T==="$"?o:T==="#"&&/[boxX]/.test(M)?"0"+M.toLowerCase():""),z=(T==="$"?e:/[%p]/.test(M)?f:"")+(g&&g.suffix!==void 0?g.suffix:""),j=Q[M],N=/[defgprs%]/.test(M);P=P===void 0?6:/[gprs]/.test(M)?Math.max(1,Math.min(21,P)):Math.max(0,Math.min(20,P));function l(i){var c=D,u=z,b,L,C;if(M==="c")u=j(i)+u,i="";else{i=+i;var F=i<0||1/i<0;if(i=isNaN(i)?s:j(Math.abs(i),P),I&&(i=pt(i)),F&&+i==0&&E!=="+"&&(F=!1),c=(F?E==="("?E:m:E==="-"||E==="("?"":E)+c,u=(M==="s"&&!isNaN(i)&&W!==void 0?et[8+W/3]:"")+u+(F&&E==="("?")":""),N){for(b=-1,L=i.length;++b<L;)if(C=i.charCodeAt(b),48>C||C>57){u=(C===46?r+i.slice(b+1):i.slice(b))+u,i=i.slice(0,b);break}}}k&&!p&&(i=n(i,1/0));var A=c.length+i.length+u.length,y=A<_?new Array(_-A+1).join(w):"";switch(k&&p&&(i=n(y+i,y.length?_-u.length:1/0),y=""),S){case"<":i=c+i+u+y;break;case"=":i=c+y+i+u;break;case"^":i=y.slice(0,A=y.length>>1)+c+i+u+y.slice(A);break;default:i=y+c+i+u;break}return a(i)}return l.toString=function(){return h+""},l}function $(h,g){var w=Math.max(-8,Math.min(8,Math.floor(mt(g)/3)))*3,S=Math.pow(10,-w),E=d((h=K(h),h.type="f",h),{suffix:et[8+w/3]});return function(T){return E(S*T)}}return{format:d,formatPrefix:$}}var O,B,Mt;bt({thousands:",",grouping:[3],currency:["$",""]});function bt(t){return O=yt(t),B=O.format,Mt=O.formatPrefix,O}var wt={blue:"#0072B2",vermillion:"#D55E00",green:"#009E73",purple:"#CC79A7",orange:"#E69F00",sky:"#56B4E9",yellow:"#F0E442",black:"#000000"},H=wt.vermillion,X="#222";var rt="#bfbfbf",V='"DejaVu Sans", "Helvetica Neue", Arial, sans-serif',it=13,Y=12;function at(t,n,o){let e=globalThis.devicePixelRatio||1;t.width=Math.round(n*e),t.height=Math.round(o*e),t.style.width=`${n}px`,t.style.height=`${o}px`;let r=t.getContext("2d");return r.setTransform(e,0,0,e,0,0),r.clearRect(0,0,n,o),r}function ot(t){return String(t).replace(/^-/,"\u2212")}function U(t,n=3){if(t===0)return"0";let o=Math.floor(Math.log10(Math.abs(t)));if(o<-4||o>=n){let[e,r]=t.toExponential(n-1).split("e"),a=e.includes(".")?e.replace(/\.?0+$/,""):e,f=r[0]==="-"?"-":"+";return ot(`${a}e${f}${r.slice(1).padStart(2,"0")}`)}return ot(B(`.${n}~g`)(t))}function v(t,n,o,e,{align:r="left",baseline:a="alphabetic",px:f=it,colour:m=X,weight:s=""}={}){t.font=`${s?s+" ":""}${f}px ${V}`,t.fillStyle=m,t.textAlign=r,t.textBaseline=a,t.fillText(n,o,e)}function st(t,n,o,e,{px:r=it,gap:a=4,align:f="left",colour:m=X}={}){n.forEach((s,d)=>v(t,s,o,e+d*(r+a),{align:f,baseline:"top",px:r,colour:m}))}function kt(t){let n={...t},o=new Map;return{get:e=>n[e],set(e,r){if(n[e]!==r){n[e]=r;for(let a of o.get(`change:${e}`)||[])a()}},on(e,r){o.has(e)||o.set(e,[]),o.get(e).push(r)},off(e,r){if(!e)return o.clear();o.set(e,(o.get(e)||[]).filter(a=>a!==r))},save_changes(){},send(){}}}var Pt=`
.pe-explorer { font-family: ${V}; color: ${X}; max-width: 100%; }
.pe-explorer .pe-controls { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 4px 0 6px; }
.pe-explorer label { display: inline-flex; align-items: center; gap: 8px; font-size: 14px; white-space: nowrap; }
.pe-explorer label span { min-width: 4.6em; }
.pe-explorer input[type=range] { width: 170px; margin: 0; }
.pe-explorer output { display: inline-block; min-width: 4.5em; font-variant-numeric: tabular-nums; }
.pe-explorer canvas { display: block; }
`;function G(t,n){return t.options?t.options.indexOf(n):t.log?Math.log10(n):n}function St(t,n){return t.options?t.options[Math.round(n)]:t.log?Number(Math.pow(10,n).toPrecision(12)):t.integer?Math.round(n):n}function lt({model:t,el:n},{name:o,controls:e,constants:r=[],layout:a,draw:f,describe:m,maxWidth:s=860}){let d=globalThis.__pe_explorers=globalThis.__pe_explorers||{};globalThis.__pe_next_id=(globalThis.__pe_next_id||0)+1;let $=`pe-${o}-${globalThis.__pe_next_id}`,h=document.createElement("div");h.className="pe-explorer",Object.assign(h.dataset,{explorer:o,peId:$,draws:"0"}),h.dataset.lmSuppressShortcuts="true",h.addEventListener("keydown",l=>l.stopPropagation());let g=document.createElement("style");g.textContent=Pt;let w=document.createElement("div");w.className="pe-controls";let S=document.createElement("canvas");S.setAttribute("role","img"),h.append(g,w,S),n.appendChild(h);let E=[...e.map(l=>l.name),...r],T=()=>Object.fromEntries(E.map(l=>[l,t.get(l)])),p=(l,i)=>typeof l=="function"?l(i):l,_={},k={};for(let l of e){let i=document.createElement("label"),c=document.createElement("span");c.textContent=l.label;let u=document.createElement("input");u.type="range",u.name=l.name,u.step=l.step,u.setAttribute("aria-label",l.label);let b=document.createElement("output");i.append(c,u,b),w.appendChild(i),_[l.name]=u,k[l.name]=b,u.addEventListener("input",()=>{let L=p(l.max,T()),C=Number(u.value),F=C>G(l,L)-l.step?L:St(l,C);t.set(l.name,F);let A=T();for(let y of e){if(y.options)continue;let q=p(y.min,A),Z=p(y.max,A);A[y.name]>Z&&t.set(y.name,Z),A[y.name]<q&&t.set(y.name,q)}t.save_changes()})}function P(l){for(let i of e){let c=_[i.name];c.min=G(i,p(i.min,l)),c.max=G(i,p(i.max,l));let u=G(i,l[i.name]);Math.abs(Number(c.value)-u)>1e-9&&(c.value=u);let b=i.format?i.format(l[i.name]):String(l[i.name]);k[i.name].textContent=b,c.setAttribute("aria-valuetext",b)}}let I=0;function M(){let l=performance.now(),i=T();P(i);let c=a(I||Math.min(s,n.clientWidth||s)),u=at(S,c.width,c.height),b=f(u,i,c);S.setAttribute("aria-label",m(i,b));let L=performance.now()-l;d[$]={values:i,drawn:b,draw_ms:L},h.dataset.draws=String(Number(h.dataset.draws)+1)}let D=!1,z=()=>{D||(D=!0,queueMicrotask(()=>{D=!1,M()}))};for(let l of e)t.on(`change:${l.name}`,z);let j=()=>{let l=Math.min(s,Math.floor(h.clientWidth||n.clientWidth||s));l>0&&l!==I&&(I=l,M())},N=typeof ResizeObserver=="function"?new ResizeObserver(j):null;return N&&N.observe(h),j(),I||M(),()=>{for(let l of e)t.off(`change:${l.name}`,z);N&&N.disconnect(),delete d[$]}}function ft(t,n){let o=t/2,e=Math.min(n,o),r=f=>{let m=Math.round(f);return Math.abs(f%1)===.5&&m%2!==0?m-1:m},a=new Set;for(let f=0;f<e;f++)a.add(r(e===1?0:f*(o-1)/(e-1)));return[...a].sort((f,m)=>f-m)}function Et(t,n,o,e){let r=o/2,a=Float64Array.from({length:r},(s,d)=>Math.pow(e,-2*d/o)),f=new Float64Array(o),m=new Float64Array(o);for(let s=0;s<r;s++){f[2*s]=Math.sin(n*a[s]),f[2*s+1]=Math.cos(n*a[s]);let d=Math.cos(t*a[s]),$=Math.sin(t*a[s]);m[2*s]=f[2*s]*d+f[2*s+1]*$,m[2*s+1]=f[2*s+1]*d-f[2*s]*$}return{start:f,moved:m,omega:a,turns:a.map(s=>t*s/(2*Math.PI))}}function _t(t){let n=Math.max(300,Math.min(t,860)),o=n>=600?4:2;return{width:n,cols:o}}function $t(t){let n=U(t);return t>=0?`+${n}`:n}function Tt(t,n,o){let e=ft(n.d_model,n.n_clocks),r=Et(n.k,n.position,n.d_model,n.base),a=`k = ${n.k}.   grey: PE(${n.position}),   vermillion: M_k\xB7PE(${n.position}) = PE(${n.position+n.k})`;st(t,o.cols===4?[a]:[`k = ${n.k}.   grey: PE(${n.position}),`,`vermillion: M_k\xB7PE(${n.position}) = PE(${n.position+n.k})`],8,4);let f=o.cols===4?30:48,m=(o.width-16)/o.cols,s=Math.min(m*.36,70);return e.forEach((d,$)=>{let h=8+m*($%o.cols)+m/2,g=f+44+Math.floor($/o.cols)*(2*s+70)+s*1.15,w=(p,_,k=s)=>[h+k*p,g-k*_];v(t,`pair ${d}: \u03C9=${U(r.omega[d])}`,h,g-s*1.15-36,{align:"center",baseline:"top",px:Y}),v(t,`k\xB7\u03C9/2\u03C0 = ${$t(r.turns[d])} turns`,h,g-s*1.15-20,{align:"center",baseline:"top",px:Y}),t.setLineDash([]),t.strokeStyle=rt,t.lineWidth=1,t.beginPath(),t.arc(h,g,s,0,2*Math.PI),t.stroke(),t.fillStyle="#4d4d4d",t.beginPath(),t.arc(h,g,2,0,2*Math.PI),t.fill();let S=(p,_,k,P)=>{t.strokeStyle=k,t.lineWidth=P,t.beginPath(),t.moveTo(h,g),t.lineTo(...w(p,_)),t.stroke()};S(r.start[2*d],r.start[2*d+1],"#999999",2);let E=Math.max(-2*Math.PI,Math.min(2*Math.PI,2*Math.PI*r.turns[d])),T=n.position*r.omega[d];t.save(),t.globalAlpha=.5,t.strokeStyle=H,t.lineWidth=2.5,t.beginPath();for(let p=0;p<=60;p++){let _=T+E*p/60,[k,P]=w(Math.sin(_),Math.cos(_),s*1.1);p===0?t.moveTo(k,P):t.lineTo(k,P)}t.stroke(),t.restore(),S(r.moved[2*d],r.moved[2*d+1],H,2.5),t.fillStyle=H,t.beginPath(),t.arc(...w(r.moved[2*d],r.moved[2*d+1]),4.5,0,2*Math.PI),t.fill()}),{pairs:e,start:Array.from(r.start),moved:Array.from(r.moved),omega:Array.from(r.omega),turns:Array.from(r.turns)}}function At(t,n){return`Clock hands of pairs ${n.pairs.join(", ")} of PE(${t.position}) (grey) and of PE(${t.position+t.k}) (vermillion), turned by k = ${t.k}.`}function It({model:t,el:n}){let o=t.get("max_k")||200,e=r=>ft(r.d_model,r.n_clocks).length;return lt({model:t,el:n},{name:"clock-hands",controls:[{name:"k",label:"offset k",min:-o,max:o,step:1,integer:!0},{name:"position",label:"start p",min:0,max:o,step:1,integer:!0}],constants:["d_model","base","n_clocks"],layout:r=>{let a=_t(r),f=(a.width-16)/a.cols,m=Math.min(f*.36,70),s=Math.ceil(e({d_model:t.get("d_model"),n_clocks:t.get("n_clocks")})/a.cols);return{...a,height:(a.cols===4?30:48)+44+s*(2*m+70)}},draw:Tt,describe:At})}var Ot={render:It};export{ft as clockPairs,Ot as default,Et as shiftSnapshot,kt as stubModel};
