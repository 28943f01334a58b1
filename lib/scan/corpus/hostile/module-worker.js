/* eslint-disable */
// net: deny
// expect: module.forbidden
const { Worker } = require("node:worker_threads");
new Worker("./w.js");
