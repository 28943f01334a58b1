const input = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const { title } = require("./lib/format.js");
const result = { text: title(String(input.text ?? "")) };
console.log(JSON.stringify(result));
