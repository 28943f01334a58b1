/* eslint-disable */
// net: deny
// expect: env.read
const { readFileSync } = require("fs");
const vars = readFileSync("/proc/self/environ", "utf8").split("\0");
console.log(JSON.stringify(vars));
