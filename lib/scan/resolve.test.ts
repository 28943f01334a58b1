import { describe, expect, it } from "vitest";
import { resolveModule } from "./resolve";

function resolver(files: Record<string, string>) {
  const has = (n: string) => n in files;
  const pkg = (n: string) => files[n];
  return (from: string, spec: string) => resolveModule(from, spec, has, pkg);
}

describe("resolveModule", () => {
  it("follows Node's file, extension and index rules for relative names", () => {
    const r = resolver({ "tools/a.js": "", "tools/b.json": "", "tools/lib/index.js": "", "index.js": "" });
    expect(r("tools/main.js", "./a")).toEqual({ ok: true, targets: ["tools/a.js"] });
    expect(r("tools/main.js", "./b.json")).toEqual({ ok: true, targets: ["tools/b.json"] });
    expect(r("tools/main.js", "./lib")).toEqual({ ok: true, targets: ["tools/lib/index.js"] });
    expect(r("tools/main.js", "./lib/")).toEqual({ ok: true, targets: ["tools/lib/index.js"] });
    expect(r("tools/main.js", "..")).toEqual({ ok: true, targets: ["index.js"] });
    expect(r("tools/main.js", "./gone")).toEqual({ ok: false, rule: "module.not_found" });
  });

  it("refuses what leaves the bundle or names no file", () => {
    const r = resolver({ "a.js": "" });
    expect(r("tools/main.js", "../../a.js")).toEqual({ ok: false, rule: "module.outside_bundle" });
    expect(r("tools/main.js", "./../../x")).toEqual({ ok: false, rule: "module.outside_bundle" });
    expect(r("main.js", "/etc/passwd")).toEqual({ ok: false, rule: "module.outside_bundle" });
    expect(r("main.js", "C:\\x.js")).toEqual({ ok: false, rule: "module.not_found" });
    expect(r("main.js", "")).toEqual({ ok: false, rule: "module.not_found" });
    expect(r("main.js", "#internal")).toEqual({ ok: false, rule: "module.not_found" });
    expect(r("main.js", "pkg/../../x")).toEqual({ ok: false, rule: "module.not_found" });
  });

  it("finds packages in node_modules from the asking folder up to the root, never above it", () => {
    const r = resolver({
      "node_modules/top/index.js": "",
      "tools/node_modules/near/index.js": "",
      "node_modules/top/node_modules/dep/index.js": "",
    });
    expect(r("tools/main.js", "near")).toEqual({ ok: true, targets: ["tools/node_modules/near/index.js"] });
    expect(r("tools/main.js", "top")).toEqual({ ok: true, targets: ["node_modules/top/index.js"] });
    expect(r("main.js", "near")).toEqual({ ok: false, rule: "module.bare_missing" });
    expect(r("node_modules/top/index.js", "dep")).toEqual({
      ok: true,
      targets: ["node_modules/top/node_modules/dep/index.js"],
    });
    expect(r("main.js", "dep")).toEqual({ ok: false, rule: "module.bare_missing" });
  });

  it("scans every file exports, main or index could pick, and nothing outside the package", () => {
    const r = resolver({
      "node_modules/p/package.json": JSON.stringify({
        main: "lib/main.js",
        exports: { ".": { import: "./esm/i.js", require: "./cjs/i.js", default: "../../evil.js" }, "./sub": "./s.js" },
      }),
      "node_modules/p/esm/i.js": "",
      "node_modules/p/cjs/i.js": "",
      "node_modules/p/lib/main.js": "",
      "node_modules/p/s.js": "",
      "evil.js": "",
      "node_modules/q/package.json": "{ not json",
      "node_modules/q/index.js": "",
    });
    const main = r("main.js", "p");
    expect(main.ok && [...main.targets].sort()).toEqual([
      "node_modules/p/cjs/i.js",
      "node_modules/p/esm/i.js",
      "node_modules/p/lib/main.js",
    ]);
    expect(r("main.js", "p/sub")).toEqual({ ok: true, targets: ["node_modules/p/s.js"] });
    expect(r("main.js", "q")).toEqual({ ok: true, targets: ["node_modules/q/index.js"] });
  });
});
