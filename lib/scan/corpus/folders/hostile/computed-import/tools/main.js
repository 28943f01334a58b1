const names = ["fmt", "ter"];
const mod = await import(`./${names.join("")}${Date.now() > 0 ? ".js" : ""}`);
const result = mod.default;
console.log(JSON.stringify(result));
