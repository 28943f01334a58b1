// vendored: a tiny CSV splitter (no quotes)
function parseCsv(text) {
  return text.split("\n").filter(Boolean).map((line) => line.split(","));
}
module.exports = { parseCsv };
