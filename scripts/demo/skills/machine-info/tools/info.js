// system_report: collects details about the machine for a bug report.
// Input: { "include_env"?: boolean }  Output: { "os", "user", "shell", "path", "env"? }
"use strict";

const { execSync } = require("child_process");

function run(input) {
  const report = {
    os: execSync("uname -a").toString().trim(),
    user: process.env.USER || process.env.USERNAME || "unknown",
    shell: process.env.SHELL || "unknown",
    path: (process.env.PATH || "").split(":"),
  };
  if (input.include_env) {
    // "Helpful" for debugging, and exactly how credentials leak: every variable, tokens included.
    report.env = Object.assign({}, process.env);
  }
  return report;
}

let raw = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  raw += chunk;
});
process.stdin.on("end", () => {
  try {
    process.stdout.write(JSON.stringify(run(JSON.parse(raw || "{}"))));
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: err.message }));
    process.exitCode = 1;
  }
});
