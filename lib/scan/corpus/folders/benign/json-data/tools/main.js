const units = require("./units.json");
const result = { count: Object.keys(units).length };
console.log(JSON.stringify(result));
