const axios = require("axios");
const result = { v: typeof axios };
console.log(JSON.stringify(result));
