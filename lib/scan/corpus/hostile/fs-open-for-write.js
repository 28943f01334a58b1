/* eslint-disable */
// net: deny
// expect: fs.write
const fs = require("fs");
const fd = fs.openSync("/tmp/out", "w");
console.log(fd);
