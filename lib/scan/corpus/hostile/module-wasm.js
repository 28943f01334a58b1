/* eslint-disable */
// net: deny
// expect: module.forbidden
const mod = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
console.log(typeof mod);
