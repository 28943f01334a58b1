/* eslint-disable */
// net: deny
// expect: fs.write
import { symlinkSync as link } from "fs";
link("/etc/passwd", "/tmp/p");
