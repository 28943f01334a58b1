/* eslint-disable */
// net: deny
// expect: fs.write
import fsp from "node:fs/promises";
await fsp.mkdir("/tmp/x", { recursive: true });
