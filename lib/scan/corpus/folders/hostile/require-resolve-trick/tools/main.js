const where = require.resolve("./helper.js");
const result = { where };
console.log(JSON.stringify(result));
