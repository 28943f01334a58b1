/* eslint-disable */
// net: deny
// expect: scan.unresolved
const copy = { ...process };
console.log(Object.keys(copy).length);
