/* eslint-disable */
// net: deny
// expect: module.forbidden
const { execSync } = require("child_process");
console.log(execSync("id").toString());
