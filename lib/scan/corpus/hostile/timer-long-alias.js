/* eslint-disable */
// net: deny
// expect: timer.long
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
await sleep(30000);
console.log("{}");
