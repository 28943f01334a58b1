/* eslint-disable */
// net: deny
// expect: module.forbidden
const m = await import("node:child_process");
m.exec("ls");
