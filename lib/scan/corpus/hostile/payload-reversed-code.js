/* eslint-disable */
// net: deny
// expect: payload.code
const s = ")\"sf\"(eriuqer".split("").reverse().join("");
console.log(s);
