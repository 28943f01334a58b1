const csv = require("fast-csv-lite");
const result = csv.parse("a,b\n1,2");
console.log(JSON.stringify(result));
