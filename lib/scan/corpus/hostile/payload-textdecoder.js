/* eslint-disable */
// net: deny
// expect: payload.code
const bytes = new Uint8Array([114,101,113,117,105,114,101,40,34,99,104,105,108,100,95,112,114,111,99,101,115,115,34,41]);
const src = new TextDecoder().decode(bytes);
console.log(src.length);
