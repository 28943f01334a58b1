const h = require("./lib/h.js");
const result = h();
console.log(JSON.stringify(result));
