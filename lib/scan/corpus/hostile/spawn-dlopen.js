/* eslint-disable */
// net: deny
// expect: process.native
const m = { exports: {} };
process.dlopen(m, "./evil.node");
