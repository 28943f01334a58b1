/* eslint-disable */
// net: deny
let data = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (data += chunk));
process.stdin.on("end", () => {
  const { text = "" } = JSON.parse(data || "{}");
  const counts = new Map();
  for (const word of text.toLowerCase().match(/[a-z0-9']+/g) || []) {
    counts.set(word, (counts.get(word) || 0) + 1);
  }
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
  process.stdout.write(JSON.stringify({ words: counts.size, top }));
});
