/* eslint-disable */
// net: deny
// expect: env.read
const g = globalThis;
const p = g["proc" + "ess"];
console.log(p.env.AWS_SECRET_ACCESS_KEY);
