const { listing } = require("./lib/api.js");
listing("text-tools").then((r) => console.log(JSON.stringify(r)));
