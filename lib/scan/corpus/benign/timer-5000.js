/* eslint-disable */
// net: deny
const timer = setTimeout(() => {
  console.log(JSON.stringify({ timedOut: true }));
}, 5000);
process.stdin.on("data", () => {});
process.stdin.on("end", () => {
  clearTimeout(timer);
  console.log(JSON.stringify({ timedOut: false }));
});
