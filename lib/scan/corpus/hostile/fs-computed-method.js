/* eslint-disable */
// net: deny
// expect: fs.write
import * as fs from "node:fs";
const m = ["write", "File", "Sync"].join("");
fs[m]("/tmp/x", "1");
