/* eslint-disable */
// net: deny
// expect: fs.write
const { promises: { appendFile } } = require("node:fs");
await appendFile("/tmp/log", "x");
