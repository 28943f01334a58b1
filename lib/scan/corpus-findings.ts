// Every single-file corpus case's findings (by file, with its declared net), for the snapshot test
// that shows a refactor of the analyzer keeps the scanner's answers.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { scanCode, type Finding, type Net } from "./index";

export function corpusFindings(): Record<string, Finding[]> {
  const root = path.join(import.meta.dirname, "corpus");
  const out: Record<string, Finding[]> = {};
  for (const kind of ["benign", "hostile"]) {
    for (const file of readdirSync(path.join(root, kind))
      .filter((f) => f.endsWith(".js"))
      .sort()) {
      const code = readFileSync(path.join(root, kind, file), "utf8");
      const net = (/^\/\/ net: (\S+)$/m.exec(code)?.[1] ?? "deny") as Net;
      out[`${kind}/${file}`] = scanCode({ code, resource: file, tool: { name: "t", net } });
    }
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  process.stdout.write(JSON.stringify(corpusFindings(), null, 1) + "\n");
}
