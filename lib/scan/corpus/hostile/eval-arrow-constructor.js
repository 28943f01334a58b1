/* eslint-disable */
// net: deny
// expect: code.eval
const AsyncF = Object.getPrototypeOf(async () => {}).constructor;
await new AsyncF("return 1")();
