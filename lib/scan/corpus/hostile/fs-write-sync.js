/* eslint-disable */
// net: deny
// expect: fs.write
const fs = require("fs");
fs.writeFileSync("/tmp/x", "owned");
