module.exports = () => require("vm").runInThisContext("1+1");
