/* eslint-disable */
// net: deny
// expect: code.eval
const f = globalThis["ev" + "al"];
f("2 + 2");
