/* eslint-disable */
// net: deny
// expect: module.forbidden
const r = process.mainModule.require;
r("child_process").execFileSync("ls");
