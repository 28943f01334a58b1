/* eslint-disable */
// net: deny
// expect: module.forbidden
const load = module.constructor._load;
load("child_process").execSync("whoami");
