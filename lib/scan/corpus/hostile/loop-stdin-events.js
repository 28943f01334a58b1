/* eslint-disable */
// net: deny
// expect: loop.input
let buf = "";
process.stdin.on("data", (c) => (buf += c));
process.stdin.on("end", () => {
  const list = JSON.parse(buf);
  for (let i = 0; i < list.length; i++) for (let j = 0; j < list.length; j++) list[i] += list[j];
  console.log(JSON.stringify(list));
});
