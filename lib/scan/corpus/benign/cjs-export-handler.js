/* eslint-disable */
// net: deny
"use strict";
const { readFileSync } = require("fs");

function handle(input) {
  const items = input.items || [];
  return { total: items.reduce((s, it) => s + (Number(it.price) || 0) * (Number(it.qty) || 1), 0) };
}

module.exports = handle;
process.stdout.write(JSON.stringify(handle(JSON.parse(readFileSync(0, "utf8") || "{}"))));
