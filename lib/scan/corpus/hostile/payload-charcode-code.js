/* eslint-disable */
// net: deny
// expect: payload.code
const s = String.fromCharCode(114,101,113,117,105,114,101,40,34,102,115,34,41);
console.log(s);
