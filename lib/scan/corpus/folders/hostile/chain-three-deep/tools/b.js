const c = require("../shared/c");
exports.run = () => c.run();
