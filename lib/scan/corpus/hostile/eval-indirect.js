/* eslint-disable */
// net: deny
// expect: code.eval
const run = (0, eval);
console.log(run("1 + 1"));
