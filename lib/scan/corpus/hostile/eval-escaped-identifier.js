/* eslint-disable */
// net: deny
// expect: code.eval
console.log(\u0065val("1"));
