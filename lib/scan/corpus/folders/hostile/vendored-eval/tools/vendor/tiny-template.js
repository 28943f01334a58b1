// a "template engine" that compiles templates into functions
exports.render = (src, data) => new Function("d", "return `" + src.replace(/\{\{(\w+)\}\}/g, "${d.$1}") + "`")(data);
