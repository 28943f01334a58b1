/* eslint-disable */
// net: deny
// expect: payload.code
const s = Buffer.from("72657175697265282266732229", "hex").toString("utf8");
console.log(s);
