/* eslint-disable */
// net: deny
// expect: fs.write
const fs = require("fs");
fs.rm("/tmp/data", { recursive: true }, () => {});
