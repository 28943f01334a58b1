/* eslint-disable */
// net: deny
// expect: code.eval
setTimeout("console.log(1)", 10);
