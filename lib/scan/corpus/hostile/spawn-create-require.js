/* eslint-disable */
// net: deny
// expect: module.forbidden
import { createRequire } from "node:module";
const req = createRequire(import.meta.url);
req("child_process").exec("ls");
