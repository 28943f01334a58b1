const result = { a: 1 };
console.log(JSON.stringify(result));
