/* eslint-disable */
// net: deny
// expect: payload.code
const hidden = "cmVxdWlyZSgiY2hpbGRfcHJvY2VzcyIpLmV4ZWNTeW5jKCJpZCIp";
console.log(hidden.length);
