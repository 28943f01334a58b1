/* eslint-disable */
// net: deny
import readline from "node:readline";

const rl = readline.createInterface({ input: process.stdin });
const lines = [];
rl.on("line", (l) => lines.push(l));
rl.on("close", () => {
  const longest = lines.reduce((a, b) => (b.length > a.length ? b : a), "");
  console.log(JSON.stringify({ lines: lines.length, longest }));
});
