/* eslint-disable */
// net: deny
// expect: code.eval
const add = new Function("a", "b", "return a + b");
console.log(add(1, 2));
