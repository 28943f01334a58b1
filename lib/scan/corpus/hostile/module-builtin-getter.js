/* eslint-disable */
// net: deny
// expect: module.forbidden
const cp = process.getBuiltinModule("child_process");
cp.execSync("ls");
