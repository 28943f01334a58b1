/* eslint-disable */
// net: deny
// expect: code.eval
const F = [].constructor.constructor;
F("return 1")();
