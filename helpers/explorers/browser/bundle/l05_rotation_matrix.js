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
function ht(t){return Math.abs(t=Math.round(t))>=1e21?t.toLocaleString("en").replace(/,/g,""):t.toString(10)}function O(t,e){if(!isFinite(t)||t===0)return null;var o=(t=e?t.toExponential(e-1):t.toExponential()).indexOf("e"),n=t.slice(0,o);return[n.length>1?n[0]+n.slice(2):n,+t.slice(o+1)]}function ut(t){return t=O(Math.abs(t)),t?t[1]:NaN}function mt(t,e){return function(o,n){for(var r=o.length,a=[],s=0,u=t[0],l=0;r>0&&u>0&&(l+u+1>n&&(u=Math.max(1,n-l)),a.push(o.substring(r-=u,r+u)),!((l+=u+1)>n));)u=t[s=(s+1)%t.length];return a.reverse().join(e)}}function dt(t){return function(e){return e.replace(/[0-9]/g,function(o){return t[+o]})}}var ct=/^(?:(.)?([<>=^]))?([+\-( ])?([$#])?(0)?(\d+)?(,)?(\.\d+)?(~)?([a-z%])?$/i;function G(t){if(!(e=ct.exec(t)))throw new Error("invalid format: "+t);var e;return new K({fill:e[1],align:e[2],sign:e[3],symbol:e[4],zero:e[5],width:e[6],comma:e[7],precision:e[8]&&e[8].slice(1),trim:e[9],type:e[10]})}G.prototype=K.prototype;function K(t){this.fill=t.fill===void 0?" ":t.fill+"",this.align=t.align===void 0?">":t.align+"",this.sign=t.sign===void 0?"-":t.sign+"",this.symbol=t.symbol===void 0?"":t.symbol+"",this.zero=!!t.zero,this.width=t.width===void 0?void 0:+t.width,this.comma=!!t.comma,this.precision=t.precision===void 0?void 0:+t.precision,this.trim=!!t.trim,this.type=t.type===void 0?"":t.type+""}K.prototype.toString=function(){return this.fill+this.align+this.sign+this.symbol+(this.zero?"0":"")+(this.width===void 0?"":Math.max(1,this.width|0))+(this.comma?",":"")+(this.precision===void 0?"":"."+Math.max(0,this.precision|0))+(this.trim?"~":"")+this.type};function pt(t){t:for(var e=t.length,o=1,n=-1,r;o<e;++o)switch(t[o]){case".":n=r=o;break;case"0":n===0&&(n=o),r=o;break;default:if(!+t[o])break t;n>0&&(n=0);break}return n>0?t.slice(0,n)+t.slice(r+1):t}var R;function gt(t,e){var o=O(t,e);if(!o)return R=void 0,t.toPrecision(e);var n=o[0],r=o[1],a=r-(R=Math.max(-8,Math.min(8,Math.floor(r/3)))*3)+1,s=n.length;return a===s?n:a>s?n+new Array(a-s+1).join("0"):a>0?n.slice(0,a)+"."+n.slice(a):"0."+new Array(1-a).join("0")+O(t,Math.max(0,e+a-1))[0]}function Z(t,e){var o=O(t,e);if(!o)return t+"";var n=o[0],r=o[1];return r<0?"0."+new Array(-r).join("0")+n:n.length>r+1?n.slice(0,r+1)+"."+n.slice(r+1):n+new Array(r-n.length+2).join("0")}var Q={"%":(t,e)=>(t*100).toFixed(e),b:t=>Math.round(t).toString(2),c:t=>t+"",d:ht,e:(t,e)=>t.toExponential(e),f:(t,e)=>t.toFixed(e),g:(t,e)=>t.toPrecision(e),o:t=>Math.round(t).toString(8),p:(t,e)=>Z(t*100,e),r:Z,s:gt,X:t=>Math.round(t).toString(16).toUpperCase(),x:t=>Math.round(t).toString(16)};function tt(t){return t}var et=Array.prototype.map,nt=["y","z","a","f","p","n","\xB5","m","","k","M","G","T","P","E","Z","Y"];function yt(t){var e=t.grouping===void 0||t.thousands===void 0?tt:mt(et.call(t.grouping,Number),t.thousands+""),o=t.currency===void 0?"":t.currency[0]+"",n=t.currency===void 0?"":t.currency[1]+"",r=t.decimal===void 0?".":t.decimal+"",a=t.numerals===void 0?tt:dt(et.call(t.numerals,String)),s=t.percent===void 0?"%":t.percent+"",u=t.minus===void 0?"\u2212":t.minus+"",l=t.nan===void 0?"NaN":t.nan+"";function d(h,g){h=G(h);var k=h.fill,S=h.align,$=h.sign,A=h.symbol,p=h.zero,E=h.width,M=h.comma,P=h.precision,L=h.trim,b=h.type;b==="n"?(M=!0,b="g"):Q[b]||(P===void 0&&(P=12),L=!0,b="g"),(p||k==="0"&&S==="=")&&(p=!0,k="0",S="=");var x=(g&&g.prefix!==void 0?g.prefix:"")+(A==="$"?o:A==="#"&&/[boxX]/.test(b)?"0"+b.toLowerCase():""),j=(A==="$"?n:/[%p]/.test(b)?s:"")+(g&&g.suffix!==void 0?g.suffix:""),D=Q[b],N=/[defgprs%]/.test(b);P=P===void 0?6:/[gprs]/.test(b)?Math.max(1,Math.min(21,P)):Math.max(0,Math.min(20,P));function f(i){var c=x,m=j,w,I,_;if(b==="c")m=D(i)+m,i="";else{i=+i;var F=i<0||1/i<0;if(i=isNaN(i)?l:D(Math.abs(i),P),L&&(i=pt(i)),F&&+i==0&&$!=="+"&&(F=!1),c=(F?$==="("?$:u:$==="-"||$==="("?"":$)+c,m=(b==="s"&&!isNaN(i)&&R!==void 0?nt[8+R/3]:"")+m+(F&&$==="("?")":""),N){for(w=-1,I=i.length;++w<I;)if(_=i.charCodeAt(w),48>_||_>57){m=(_===46?r+i.slice(w+1):i.slice(w))+m,i=i.slice(0,w);break}}}M&&!p&&(i=e(i,1/0));var C=c.length+i.length+m.length,y=C<E?new Array(E-C+1).join(k):"";switch(M&&p&&(i=e(y+i,y.length?E-m.length:1/0),y=""),S){case"<":i=c+i+m+y;break;case"=":i=c+y+i+m;break;case"^":i=y.slice(0,C=y.length>>1)+c+i+m+y.slice(C);break;default:i=y+c+i+m;break}return a(i)}return f.toString=function(){return h+""},f}function T(h,g){var k=Math.max(-8,Math.min(8,Math.floor(ut(g)/3)))*3,S=Math.pow(10,-k),$=d((h=G(h),h.type="f",h),{suffix:nt[8+k/3]});return function(A){return $(S*A)}}return{format:d,formatPrefix:T}}var z,B,bt;Mt({thousands:",",grouping:[3],currency:["$",""]});function Mt(t){return z=yt(t),B=z.format,bt=z.formatPrefix,z}var wt={blue:"#0072B2",vermillion:"#D55E00",green:"#009E73",purple:"#CC79A7",orange:"#E69F00",sky:"#56B4E9",yellow:"#F0E442",black:"#000000"},W=wt.vermillion,H="#222";var rt="#bfbfbf",V='"DejaVu Sans", "Helvetica Neue", Arial, sans-serif',it=13,Y=12;function at(t,e,o){let n=globalThis.devicePixelRatio||1,r=Math.round(e*n),a=Math.round(o*n);(t.width!==r||t.height!==a)&&(t.width=r,t.height=a,t.style.width=`${e}px`,t.style.height=`${o}px`);let s=t.getContext("2d");return typeof s.reset=="function"?s.reset():Object.assign(s,{globalAlpha:1,lineWidth:1,lineCap:"butt",lineJoin:"miter",textAlign:"start",textBaseline:"alphabetic",fillStyle:"#000",strokeStyle:"#000"}).setLineDash([]),s.setTransform(n,0,0,n,0,0),s.clearRect(0,0,e,o),s}function ot(t){return String(t).replace(/^-/,"\u2212")}function U(t,e=3){if(t===0)return"0";let o=Math.floor(Math.log10(Math.abs(t)));if(o<-4||o>=e){let[n,r]=t.toExponential(e-1).split("e"),a=n.includes(".")?n.replace(/\.?0+$/,""):n,s=r[0]==="-"?"-":"+";return ot(`${a}e${s}${r.slice(1).padStart(2,"0")}`)}return ot(B(`.${e}~g`)(t))}function X(t,e,o,n,{align:r="left",baseline:a="alphabetic",px:s=it,colour:u=H,weight:l=""}={}){t.font=`${l?l+" ":""}${s}px ${V}`,t.fillStyle=u,t.textAlign=r,t.textBaseline=a,t.fillText(e,o,n)}function st(t,e,o,n,{px:r=it,gap:a=4,align:s="left",colour:u=H}={}){e.forEach((l,d)=>X(t,l,o,n+d*(r+a),{align:s,baseline:"top",px:r,colour:u}))}function kt(t){let e={...t},o=new Map;return{get:n=>e[n],set(n,r){if(e[n]!==r){e[n]=r;for(let a of o.get(`change:${n}`)||[])a()}},on(n,r){o.has(n)||o.set(n,[]),o.get(n).push(r)},off(n,r){if(!n)return o.clear();o.set(n,(o.get(n)||[]).filter(a=>a!==r))},save_changes(){},send(){}}}var Pt=`
.pe-explorer { font-family: ${V}; color: ${H}; max-width: 100%; }
.pe-explorer .pe-controls { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 4px 0 6px; }
.pe-explorer label { display: inline-flex; align-items: center; gap: 8px; font-size: 14px; white-space: nowrap;
  max-width: 100%; }
.pe-explorer label span { min-width: 4.6em; }
/* on a narrow screen a long name or readout wraps rather than run under the slider or out of the box */
.pe-explorer label span, .pe-explorer output { white-space: normal; }
.pe-explorer input[type=range] { width: 170px; min-width: 64px; flex: 0 1 auto; margin: 0; }
.pe-explorer output { display: inline-block; min-width: 4.5em; font-variant-numeric: tabular-nums; }
.pe-explorer canvas { display: block; background: #fff; }
`;function v(t,e){return t.options?t.options.indexOf(e):t.log?Math.log10(e):e}function St(t,e){return t.options?t.options[Math.round(e)]:t.log?Number(Math.pow(10,e).toPrecision(12)):t.integer?Math.round(e):e}function lt({model:t,el:e},{name:o,controls:n,constants:r=[],layout:a,draw:s,describe:u,maxWidth:l=860}){let d=globalThis.__pe_explorers=globalThis.__pe_explorers||{};globalThis.__pe_next_id=(globalThis.__pe_next_id||0)+1;let T=`pe-${o}-${globalThis.__pe_next_id}`,h=document.createElement("div");h.className="pe-explorer",h.style.maxWidth=`${l}px`,Object.assign(h.dataset,{explorer:o,peId:T,draws:"0"}),h.dataset.lmSuppressShortcuts="true",h.addEventListener("keydown",f=>f.stopPropagation());let g=document.createElement("style");g.textContent=Pt;let k=document.createElement("div");k.className="pe-controls";let S=document.createElement("canvas");S.setAttribute("role","img"),h.append(g,k,S),e.appendChild(h);let $=[...n.map(f=>f.name),...r],A=()=>Object.fromEntries($.map(f=>[f,t.get(f)])),p=(f,i)=>typeof f=="function"?f(i):f,E={},M={};for(let f of n){let i=document.createElement("label"),c=document.createElement("span");c.textContent=f.label;let m=document.createElement("input");m.type="range",m.name=f.name,m.step=f.step,m.setAttribute("aria-label",f.label);let w=document.createElement("output");i.append(c,m,w),k.appendChild(i),E[f.name]=m,M[f.name]=w,m.addEventListener("input",()=>{let I=p(f.max,A()),_=Number(m.value),F=_>v(f,I)-f.step?I:St(f,_);t.set(f.name,F);let C=A();for(let y of n){if(y.options)continue;let q=p(y.min,C),J=p(y.max,C);C[y.name]>J&&t.set(y.name,J),C[y.name]<q&&t.set(y.name,q)}t.save_changes()})}function P(f){for(let i of n){let c=E[i.name],m=String(v(i,p(i.min,f))),w=String(v(i,p(i.max,f)));c.min!==m&&(c.min=m),c.max!==w&&(c.max=w);let I=v(i,f[i.name]);Math.abs(Number(c.value)-I)>1e-9&&(c.value=I);let _=i.format?i.format(f[i.name]):String(f[i.name]);M[i.name].textContent!==_&&(M[i.name].textContent=_),c.getAttribute("aria-valuetext")!==_&&c.setAttribute("aria-valuetext",_)}}let L=0;function b(){let f=performance.now(),i=A();P(i);let c=a(L||Math.min(l,e.clientWidth||l)),m=at(S,c.width,c.height),w=s(m,i,c);S.setAttribute("aria-label",u(i,w));let I=performance.now()-f;d[T]={values:i,drawn:w,draw_ms:I},h.dataset.draws=String(Number(h.dataset.draws)+1)}let x=!1,j=()=>{x||(x=!0,queueMicrotask(()=>{x=!1,b()}))};for(let f of n)t.on(`change:${f.name}`,j);let D=()=>{let f=Math.min(l,Math.floor(h.clientWidth||e.clientWidth||l));f>0&&f!==L&&(L=f,b())},N=typeof ResizeObserver=="function"?new ResizeObserver(D):null;return N&&N.observe(h),D(),L||b(),()=>{for(let f of n)t.off(`change:${f.name}`,j);N&&N.disconnect(),delete d[T]}}function ft(t,e){let o=t/2,n=Math.min(e,o),r=s=>{let u=Math.round(s);return Math.abs(s%1)===.5&&u%2!==0?u-1:u},a=new Set;for(let s=0;s<n;s++)a.add(r(n===1?0:s*(o-1)/(n-1)));return[...a].sort((s,u)=>s-u)}function $t(t,e,o,n){let r=o/2,a=Float64Array.from({length:r},(l,d)=>Math.pow(n,-2*d/o)),s=new Float64Array(o),u=new Float64Array(o);for(let l=0;l<r;l++){s[2*l]=Math.sin(e*a[l]),s[2*l+1]=Math.cos(e*a[l]);let d=Math.cos(t*a[l]),T=Math.sin(t*a[l]);u[2*l]=s[2*l]*d+s[2*l+1]*T,u[2*l+1]=s[2*l+1]*d-s[2*l]*T}return{start:s,moved:u,omega:a,turns:a.map(l=>t*l/(2*Math.PI))}}function Et(t){let e=Math.max(300,Math.min(t,860)),o=e>=600?4:2;return{width:e,cols:o}}function _t(t){let e=U(t);return t>=0?`+${e}`:e}function Tt(t,e,o){let n=ft(e.d_model,e.n_clocks),r=$t(e.k,e.position,e.d_model,e.base),a=`k = ${e.k}.   grey: PE(${e.position}),   vermillion: M_k\xB7PE(${e.position}) = PE(${e.position+e.k})`;st(t,o.cols===4?[a]:[`k = ${e.k}.   grey: PE(${e.position}),`,`vermillion: M_k\xB7PE(${e.position}) = PE(${e.position+e.k})`],8,4);let s=o.cols===4?30:48,u=(o.width-16)/o.cols,l=Math.min(u*.36,70);return n.forEach((d,T)=>{let h=8+u*(T%o.cols)+u/2,g=s+44+Math.floor(T/o.cols)*(2*l+70)+l*1.15,k=(p,E,M=l)=>[h+M*p,g-M*E];X(t,`pair ${d}: \u03C9=${U(r.omega[d])}`,h,g-l*1.15-36,{align:"center",baseline:"top",px:Y}),X(t,`k\xB7\u03C9/2\u03C0 = ${_t(r.turns[d])} turns`,h,g-l*1.15-20,{align:"center",baseline:"top",px:Y}),t.setLineDash([]),t.strokeStyle=rt,t.lineWidth=1,t.beginPath(),t.arc(h,g,l,0,2*Math.PI),t.stroke(),t.fillStyle="#4d4d4d",t.beginPath(),t.arc(h,g,2,0,2*Math.PI),t.fill();let S=(p,E,M,P)=>{t.strokeStyle=M,t.lineWidth=P,t.beginPath(),t.moveTo(h,g),t.lineTo(...k(p,E)),t.stroke()};S(r.start[2*d],r.start[2*d+1],"#999999",2);let $=Math.max(-2*Math.PI,Math.min(2*Math.PI,2*Math.PI*r.turns[d])),A=e.position*r.omega[d];t.save(),t.globalAlpha=.5,t.strokeStyle=W,t.lineWidth=2.5,t.beginPath();for(let p=0;p<=60;p++){let E=A+$*p/60,[M,P]=k(Math.sin(E),Math.cos(E),l*1.1);p===0?t.moveTo(M,P):t.lineTo(M,P)}t.stroke(),t.restore(),S(r.moved[2*d],r.moved[2*d+1],W,2.5),t.fillStyle=W,t.beginPath(),t.arc(...k(r.moved[2*d],r.moved[2*d+1]),4.5,0,2*Math.PI),t.fill()}),{pairs:n,start:Array.from(r.start),moved:Array.from(r.moved),omega:Array.from(r.omega),turns:Array.from(r.turns)}}function At(t,e){return`Clock hands of pairs ${e.pairs.join(", ")} of PE(${t.position}) (grey) and of PE(${t.position+t.k}) (vermillion), turned by k = ${t.k}.`}function It({model:t,el:e}){let o=t.get("max_k")||200,n=r=>ft(r.d_model,r.n_clocks).length;return lt({model:t,el:e},{name:"clock-hands",controls:[{name:"k",label:"offset k",min:-o,max:o,step:1,integer:!0},{name:"position",label:"start p",min:0,max:o,step:1,integer:!0}],constants:["d_model","base","n_clocks"],layout:r=>{let a=Et(r),s=(a.width-16)/a.cols,u=Math.min(s*.36,70),l=Math.ceil(n({d_model:t.get("d_model"),n_clocks:t.get("n_clocks")})/a.cols);return{...a,height:(a.cols===4?30:48)+44+l*(2*u+70)}},draw:Tt,describe:At})}var zt={render:It};export{ft as clockPairs,zt as default,$t as shiftSnapshot,kt as stubModel};
