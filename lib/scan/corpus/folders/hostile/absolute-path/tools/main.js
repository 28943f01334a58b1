const m = require("/usr/lib/node_modules/npm/lib/cli.js");
const result = typeof m;
console.log(JSON.stringify(result));
