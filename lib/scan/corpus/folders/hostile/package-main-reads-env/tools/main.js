import pad from "pad-it";
const result = { padded: pad("7", 3) };
console.log(JSON.stringify(result));
