const { later } = require("./later.js");
later(() => console.log(JSON.stringify({ done: true })));
