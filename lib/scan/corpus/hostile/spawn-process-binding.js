/* eslint-disable */
// net: deny
// expect: process.native
const sp = process.binding("spawn_sync");
sp.spawn({ file: "/bin/sh", args: ["sh"] });
