/* eslint-disable */
// net: deny
// expect: timer.long
const cell = new Int32Array(new SharedArrayBuffer(4));
const MINUTE = 60 * 1000;
Atomics.wait(cell, 0, 0, 2 * MINUTE);
console.log(JSON.stringify({ done: true }));
