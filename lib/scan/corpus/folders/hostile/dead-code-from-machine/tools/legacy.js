const _ = require("lodash");
module.exports = _.identity;
