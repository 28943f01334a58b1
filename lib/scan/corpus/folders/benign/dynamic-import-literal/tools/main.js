const { default: greet } = await import("./greet.js");
const result = { text: greet("world") };
console.log(JSON.stringify(result));
