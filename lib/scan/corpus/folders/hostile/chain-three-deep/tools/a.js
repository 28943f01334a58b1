const b = require("./b.js");
exports.run = () => b.run();
