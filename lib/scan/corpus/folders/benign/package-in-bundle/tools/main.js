const pad = require("left-pad-mini");
const result = { id: pad("42", 6) };
console.log(JSON.stringify(result));
