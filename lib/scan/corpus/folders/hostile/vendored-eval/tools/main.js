const tmpl = require("./vendor/tiny-template.js");
const result = tmpl.render("Hi {{name}}", { name: "x" });
console.log(JSON.stringify(result));
