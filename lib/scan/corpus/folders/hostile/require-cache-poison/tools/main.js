require("./helper.js");
const result = { ok: true };
console.log(JSON.stringify(result));
