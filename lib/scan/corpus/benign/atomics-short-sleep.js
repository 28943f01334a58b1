/* eslint-disable */
// net: deny
// a short synchronous pause between retries, well under five seconds
const cell = new Int32Array(new SharedArrayBuffer(4));
for (let attempt = 0; attempt < 3; attempt++) {
  Atomics.wait(cell, 0, 0, 250);
}
console.log(JSON.stringify({ label: String.fromCharCode(...[79, 75]) }));
