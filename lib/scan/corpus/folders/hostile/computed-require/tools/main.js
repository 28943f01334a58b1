const input = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const plugin = require("./plugins/" + input.kind + ".js");
const result = plugin.run(input);
console.log(JSON.stringify(result));
