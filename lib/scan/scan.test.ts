import { describe, expect, it } from "vitest";
import {
  LONG_ENCODED_CHARS,
  MAX_LINE_BYTES,
  MAX_TIMER_MS,
  RULES,
  scanCode,
  scanSkill,
  type Net,
  type SkillResource,
} from "./index";

function scan(code: string, net: Net = "deny") {
  return scanCode({ code, resource: "tool.js", tool: { name: "tool", net } });
}
function rules(code: string, net: Net = "deny"): string[] {
  return scan(code, net).map((f) => f.rule);
}
function expectRule(code: string, rule: string, net: Net = "deny") {
  expect(rules(code, net), code).toContain(rule);
}
function expectClean(code: string, net: Net = "deny") {
  expect(scan(code, net), code).toEqual([]);
}

const B64_CHUNK = "QWxsIHRoZSB3b3JsZCdzIGEgc3RhZ2UsIGFuZCBhbGwgdGhlIG1lbiBhbmQgd29tZW4gbWVyZWx5IHBsYXllcnM7";

describe("thresholds", () => {
  it("are the documented values", () => {
    expect(LONG_ENCODED_CHARS).toBe(200);
    expect(MAX_LINE_BYTES).toBe(2048);
    expect(MAX_TIMER_MS).toBe(5000);
  });
});

describe("finding shape and verdict", () => {
  it("carries rule, severity, tool, resource, line, column, excerpt and a plain sentence", () => {
    const [f] = scan("const a = 1;\nconst home = process.env.HOME;\n");
    expect(f).toEqual({
      rule: "env.read",
      severity: "fail",
      tool: "tool",
      resource: "tool.js",
      line: 2,
      column: 14,
      excerpt: "const home = process.env.HOME;",
      message: RULES["env.read"].message,
    });
    expect(f!.message).toMatch(/environment variables/);
  });

  it("turns a parse error into a fail finding instead of throwing", () => {
    const f = scan("const = ;\n");
    expect(f).toHaveLength(1);
    expect(f[0]!.rule).toBe("scan.parse");
    expect(f[0]!.severity).toBe("fail");
  });

  it("refuses code nested deep enough to crash the native parser, and never throws", () => {
    expect(rules("(".repeat(3000) + "1" + ")".repeat(3000))).toContain("scan.too_deep");
    expect(rules("x=" + "()=>".repeat(5000) + "1")).toContain("scan.too_deep");
    // deep but parseable chains overflow the walker's stack: that fails closed instead of throwing
    const chain = rules("a" + ".b".repeat(30000));
    expect(chain).toContain("scan.unresolved");
    for (const code of [
      "class A { #x = 1; static { this.y = 1 } get z() { return this.#x } }",
      "label: for (;;) { break label }",
      "const { a = 1, ...r } = o; x ??= y;",
    ]) {
      expect(() => scan(code)).not.toThrow();
    }
  });

  it("reports columns in characters on lines with non-ASCII text", () => {
    const [f] = scan('const s = "héllo wörld"; eval(s);\n');
    expect(f!.rule).toBe("code.eval");
    expect(f!.column).toBe(26);
  });

  it("scanSkill scans each tool's entry with that tool's net and folds the verdict", () => {
    const doc = {
      resources: [
        { name: "ok.js", media_type: "text/javascript", text: "console.log(JSON.stringify({ ok: true }));\n" },
        { name: "net.js", media_type: "text/javascript", text: 'await fetch("https://api.openvibe.services/v1");\n' },
      ],
      tools: [
        { name: "ok", entry: "ok.js", net: "deny" as const },
        { name: "online", entry: "net.js", net: "openvibe-only" as const },
      ],
    };
    const r = scanSkill(doc);
    expect(r.verdict).toBe("flagged");
    expect(r.findings.map((f) => [f.tool, f.rule])).toEqual([["online", "net.use"]]);

    const denied = scanSkill({ ...doc, tools: [{ name: "online", entry: "net.js", net: "deny" }] });
    expect(denied.verdict).toBe("failed");
    expect(denied.findings[0]!.rule).toBe("net.denied");

    // net.js ships although no entry reaches it: it is scanned as code of its own, and fails
    const dead = scanSkill({ resources: doc.resources, tools: [{ name: "ok", entry: "ok.js" }] });
    expect(dead.verdict).toBe("failed");
    expect(dead.findings.map((f) => [f.tool, f.resource, f.rule])).toEqual([[undefined, "net.js", "net.denied"]]);
    expect(scanSkill({ resources: doc.resources.slice(0, 1), tools: [{ name: "ok", entry: "ok.js" }] }).verdict).toBe(
      "passed",
    );
    const missing = scanSkill({ resources: [], tools: [{ name: "x", entry: "gone.js" }] });
    expect(missing.verdict).toBe("failed");
    expect(missing.findings[0]!.rule).toBe("scan.entry_missing");
  });
});

describe("rules", () => {
  it("env.read", () => {
    expectRule("console.log(process.env.HOME)", "env.read");
    expectRule("const { env } = process;", "env.read");
    expectRule("Object.keys(process.env)", "env.read");
  });
  it("process spawning and native bindings", () => {
    expectRule('require("child_process").spawn("ls")', "module.forbidden");
    expectRule('process.binding("spawn_sync")', "process.native");
    expectRule('process._linkedBinding("x")', "process.native");
    expectRule('process.dlopen({}, "a.node")', "process.native");
    expectRule('process.execve("/bin/sh")', "process.spawn");
    expectRule('require("cluster").fork()', "module.forbidden");
  });
  it("module.forbidden for vm, worker_threads, child_process in every import form", () => {
    expectRule('import vm from "node:vm";', "module.forbidden");
    expectRule('import * as w from "worker_threads";', "module.forbidden");
    expectRule('import { exec } from "child_process";', "module.forbidden");
    expectRule('export { exec } from "child_process";', "module.forbidden");
    expectRule('await import("vm");', "module.forbidden");
    expectRule('import("data:text/javascript,console.log(1)")', "payload.code");
  });
  it("fs.write for sync, callback and promise writes, and open-for-write", () => {
    for (const api of [
      "writeFileSync",
      "appendFile",
      "mkdirSync",
      "rmSync",
      "renameSync",
      "symlink",
      "unlinkSync",
      "createWriteStream",
      "copyFileSync",
      "truncate",
      "cp",
    ]) {
      expectRule(`const fs = require("fs"); fs.${api}("a", "b");`, "fs.write");
    }
    expectRule('const fs = require("fs"); fs.promises.writeFile("a", "b");', "fs.write");
    expectRule('import { writeFile } from "fs/promises"; await writeFile("a", "b");', "fs.write");
    expectRule('import fsp from "node:fs/promises"; await fsp.rm("a");', "fs.write");
    expectRule('const fs = require("fs"); fs.openSync("a", "w");', "fs.write");
    expectRule('const fs = require("fs"); fs.openSync("a", "r+");', "fs.write");
    expectRule('const fs = require("fs"); fs.openSync("a", flags);', "fs.write");
    expectRule('import { open } from "fs/promises"; await open("a", "a");', "fs.write");
  });
  it("fs reads and stdin are fine", () => {
    expectClean(
      'const fs = require("node:fs"); const s = fs.readFileSync(0, "utf8"); fs.openSync("x", "r"); fs.existsSync("y"); console.log(s);',
    );
    expectClean('import { readFile } from "node:fs/promises"; console.log(await readFile("/dev/stdin", "utf8"));');
    expectClean('process.stdin.on("data", (c) => process.stdout.write(c));');
  });
  it("code.eval", () => {
    expectRule("eval('1')", "code.eval");
    expectRule("new Function('return 1')", "code.eval");
    expectRule("Function('return 1')()", "code.eval");
    expectRule("setTimeout('doIt()', 10)", "code.eval");
    expectRule("setInterval(`x${1}`, 10)", "code.eval");
  });
  it("net.denied, net.use and hosts under openvibe-only", () => {
    expectRule('fetch("https://api.openvibe.services/x")', "net.denied", "deny");
    expectRule('require("https").get("https://x.org")', "net.denied", "deny");
    expectRule('new WebSocket("wss://a.openvibe.services")', "net.denied", "deny");
    expect(rules('fetch("https://api.openvibe.services/x")', "openvibe-only")).toEqual(["net.use"]);
    expect(rules('fetch("https://example.com/x")', "public")).toEqual(["net.use"]);
    expectRule('fetch("https://example.com/x")', "net.foreign_host", "openvibe-only");
  });
  it("parses hosts properly: openvibe.services and subdomains only", () => {
    const host = (u: string) => rules(`const u = ${JSON.stringify(u)};`, "openvibe-only");
    expect(host("https://openvibe.services/a")).toEqual([]);
    expect(host("https://api.eu.openvibe.services:443/a?b=c")).toEqual([]);
    expect(host("https://OPENVIBE.SERVICES./x")).toEqual([]);
    for (const bad of [
      "https://openvibe.services.evil.com/",
      "https://evilopenvibe.services/",
      "https://openvibe-services.com/",
      "https://openvibe.services@evil.net/",
      "http://127.0.0.1:3000/",
      "http://[::1]/",
      "http://0x7f.0.0.1/",
      "http://2130706433/",
      "http://localhost/",
      "exfil.attacker.io",
      "10.0.0.8",
      "admin@evil.org",
    ]) {
      expect(host(bad), bad).toContain("net.foreign_host");
    }
    expect(host("see data.json, report.csv and v1.2.3")).toEqual([]);
  });
  it("fails closed when the address is built at run time under openvibe-only", () => {
    expectRule("fetch(input.url)", "net.unresolved_host", "openvibe-only");
    expectRule("fetch('https://api.openvibe.services' + path)", "net.unresolved_host", "openvibe-only");
    expect(rules("fetch('https://api.openvibe.services/' + path)", "openvibe-only")).toEqual(["net.use"]);
    expect(rules("fetch(`https://api.openvibe.services/v1/${id}`)", "openvibe-only")).toEqual(["net.use"]);
    expect(rules("const B = 'https://api.openvibe.services'; fetch(new URL('/v1', B))", "openvibe-only")).toEqual([
      "net.use",
    ]);
    const api = "const B = 'https://api.openvibe.services'; const api = (p) => fetch(B + p);\n";
    expect(rules(api + "api('/v1/a'); api('/v1/b');", "openvibe-only")).toEqual(["net.use"]);
    expect(rules(api + "api('/v1/a'); api(input.path);", "openvibe-only")).toContain("net.unresolved_host");
    expect(
      rules("const u = cond ? 'https://a.openvibe.services/x' : 'https://evil.com/x'; fetch(u)", "openvibe-only"),
    ).toContain("net.foreign_host");
  });
  it("payload.encoded at 200 characters of one alphabet, after joining pieces", () => {
    const b64 = B64_CHUNK.repeat(4);
    expectRule(`const a = "${b64.slice(0, 200)}";`, "payload.encoded");
    expectClean(`const a = "${b64.slice(0, 199)}";`);
    expectRule(`const a = "${"0123456789abcdef".repeat(13)}";`, "payload.encoded");
    expectRule(`const a = "${b64.slice(0, 100)}" + "${b64.slice(100, 200)}";`, "payload.encoded");
    expectRule(`const a = ["${b64.slice(0, 100)}", "${b64.slice(100, 200)}"].join("");`, "payload.encoded");
    expectRule(
      `const p = ["${b64.slice(0, 100)}", "${b64.slice(100, 200)}"]; const a = p.join("");`,
      "payload.encoded",
    );
    expectRule(
      "const a = `\n  " + b64.slice(0, 64) + "\n  " + b64.slice(64, 128) + "\n  " + b64.slice(128, 210) + "\n`;",
      "payload.encoded",
    );
    expectRule(`const a = "${"\\x41\\x7a".repeat(50)}";`, "payload.encoded");
    expectClean(`const a = "${"\\x41\\x7a".repeat(49)}";`);
  });
  it("payload.code when something decodes to code", () => {
    expectRule('const s = atob("cHJvY2Vzcy5lbnYuU0VDUkVU");', "payload.code");
    expectRule(
      'const s = Buffer.from("636f6e736f6c652e6c6f672870726f636573732e656e7629", "hex").toString();',
      "payload.code",
    );
    expectRule("const s = String.fromCharCode(101,118,97,108,40,120,41);", "payload.code");
    expectRule('const s = "cmVxdWlyZSgiY2hpbGRfcHJvY2VzcyIp";', "payload.code");
    expectRule('const s = "\\x72\\x65\\x71\\x75\\x69\\x72\\x65\\x28\\x27\\x66\\x73\\x27\\x29";', "payload.code");
  });
  it("code.minified for any line over 2048 bytes, even in a readable file", () => {
    const line = "const x = [" + "1,".repeat(1100) + "];";
    expectRule(`// readable\nconst a = 1;\n${line}\nconst b = 2;\n`, "code.minified");
    expectClean(`const x = [${"1,".repeat(1000)}];\n`);
    expect(Buffer.byteLength("é".repeat(1100))).toBeGreaterThan(2048);
    expectRule(`const s = "${"é".repeat(1100)}";\n`, "code.minified");
  });
  it("timer.long above 5000 ms after folding constants; exactly 5000 passes", () => {
    expectClean("setTimeout(() => {}, 5000);");
    expectRule("setTimeout(() => {}, 5001);", "timer.long");
    expectRule("const S = 1000; setTimeout(() => {}, 6 * S);", "timer.long");
    expectRule("setInterval(tick, 60e3);", "timer.long");
    expectRule('import { setTimeout as wait } from "node:timers/promises"; await wait(10000);', "timer.long");
    expect(scan("setTimeout(() => {}, 9000);")[0]!.severity).toBe("flag");
  });
  it("loop.input for nested loops over input and input-bounded while/for(;;)", () => {
    const read = 'const input = JSON.parse(require("fs").readFileSync(0, "utf8"));\n';
    expectRule(read + "for (const a of input.xs) for (const b of input.xs) {}", "loop.input");
    expectRule(read + "input.xs.forEach((a) => input.xs.forEach((b) => {}));", "loop.input");
    expectRule(read + "let i = 0; while (i < input.n) i++;", "loop.input");
    expectRule(read + "let i = 0; do { i++; } while (i < input.xs.length);", "loop.input");
    expectRule(read + "for (let i = 0; ; i++) { if (i > input.n) break; }", "loop.input");
    expectRule(read + "for (let i = 0; i < input.n; i++) {}", "loop.input");
    expect(scan(read + "for (let i = 0; i < input.n; i++) {}")[0]!.severity).toBe("flag");
    expectClean(read + "for (const a of input.xs) { for (const c of a.cells) {} }");
    expectClean(read + "for (let i = 0; i < input.xs.length; i++) {}");
    expectClean(read + "const n = Math.min(input.n, 50); for (let i = 0; i < n; i++) {}");
    // sizes derived from the data itself are one pass over it, not a count the input chooses
    const width = read + "const rows = input.rows; const width = Math.max(...rows.map((r) => r.length));\n";
    expectClean(width + "const names = Array.from({ length: width }, (_, i) => String(i));");
    expectClean(width + "for (let c = 0; c < width; c++) {}");
  });
});

describe("evasion", () => {
  it("computed and concatenated property names", () => {
    expectRule('process["e" + "nv"].X', "env.read");
    expectRule("const k = `en${'v'}`; process[k]", "env.read");
    expectRule('const fs = require("fs"); fs[["write", "FileSync"].join("")]("a", "b")', "fs.write");
  });
  it("destructuring and renames", () => {
    expectRule("const { env: e } = process; e.X", "env.read");
    expectRule("const { ['e' + 'nv']: e } = process;", "env.read");
    expectRule('const { promises: { writeFile: w } } = require("fs"); w("a", "b")', "fs.write");
    expectRule("let e; ({ env: e } = process);", "env.read");
    expectRule("function f({ env }) { return env } f(process)", "env.read");
  });
  it("aliases across variables and functions", () => {
    expectRule("const p = process; const q = p; q.env", "env.read");
    expectRule("let p; p = process; p.env", "env.read");
    expectRule("function get() { return process } get().env", "env.read");
    expectRule("const get = (o, k) => o[k]; get(process, 'env')", "env.read");
    expectRule("const o = { p: process }; o.p.env", "env.read");
    expectRule("const box = {}; box.p = process; box.p.env", "env.read");
    expectRule("const [p] = [process]; p.env", "env.read");
  });
  it("globalThis / global / this routes to process", () => {
    expectRule("globalThis.process.env", "env.read");
    expectRule("global['process'].env", "env.read");
    expectRule("window.process.env", "env.read");
    expectRule("(function () { return this })().process.env", "env.read");
    expectRule("const g = Function('return this')(); g.process", "code.eval");
  });
  it("optional chaining", () => {
    expectRule("process?.env?.X", "env.read");
    expectRule("process?.['env']", "env.read");
    expectRule('require("fs")?.writeFileSync?.("a", "b")', "fs.write");
  });
  it("dynamic import", () => {
    expectRule('const { exec } = await import("child_" + "process");', "module.forbidden");
    expectRule('import("fs").then((m) => m.writeFileSync("a", "b"));', "fs.write");
    expectRule("import(name)", "module.unresolved");
  });
  it("require in all its disguises", () => {
    expectRule('const r = require; r("vm")', "module.forbidden");
    expectRule('import { createRequire } from "module"; createRequire(import.meta.url)("vm")', "module.forbidden");
    expectRule('require("node:module").createRequire(__filename)("vm")', "module.forbidden");
    expectRule('module.constructor._load("vm")', "module.forbidden");
    expectRule('module.require("vm")', "module.forbidden");
    expectRule('process.mainModule.require("vm")', "module.forbidden");
    expectRule('require.main.require("vm")', "module.forbidden");
    expectRule('process.getBuiltinModule("vm")', "module.forbidden");
    expectRule('require.call(null, "vm")', "module.forbidden");
    expectRule('Reflect.apply(require, null, ["vm"])', "module.forbidden");
    expectRule("require(x)", "module.unresolved");
  });
  it("constructor chains that reach Function, and indirect eval", () => {
    expectRule("[].constructor.constructor('return 1')()", "code.eval");
    expectRule("(() => {}).constructor('return 1')", "code.eval");
    expectRule("Object.getPrototypeOf(async () => {}).constructor('x')", "code.eval");
    expectRule("''.sub.constructor('x')", "code.eval");
    expectRule("Math.max['constr' + 'uctor']('x')", "code.eval");
    expectRule("(0, eval)('1')", "code.eval");
    expectRule("const e = eval; e('1')", "code.eval");
    expectRule("globalThis['ev' + 'al']('1')", "code.eval");
    expectRule("[eval][0]('1')", "code.eval");
    expectRule("x.constructor(code)", "scan.unresolved");
  });
  it("string-bodied timers", () => {
    expectRule("const t = setTimeout; t('go()', 1)", "code.eval");
    expectRule("globalThis.setInterval('go()', 1)", "code.eval");
    expectRule("const s = 'go' + '()'; setTimeout(s, 1)", "code.eval");
  });
  it("escape sequences in strings and identifiers", () => {
    expectRule("process['\\x65\\x6e\\x76']", "env.read");
    expectRule("process['\\u0065nv']", "env.read");
    expectRule("\\u0065val('1')", "code.eval");
    expectRule("pro\\u0063ess.env", "env.read");
    expectRule('require("\\u0063hild_process")', "module.forbidden");
  });
  it("payloads assembled from base64, hex and char codes", () => {
    expectRule('process[atob("ZW52")]', "env.read");
    expectRule('require(Buffer.from("6368696c645f70726f63657373", "hex").toString())', "module.forbidden");
    expectRule("globalThis[String.fromCharCode(101, 118, 97, 108)]('1')", "code.eval");
    expectRule("const k = [101, 110, 118].map((c) => String.fromCharCode(c)).join(''); process[k]", "env.read");
    expectRule("process['vne'.split('').reverse().join('')]", "env.read");
    expectRule("process[decodeURIComponent('%65nv')]", "env.read");
  });
  it("fails closed on unresolvable positions and says so", () => {
    const f = scan("process[name]");
    expect(f.map((x) => x.rule)).toEqual(["scan.unresolved"]);
    expect(f[0]!.message).toMatch(/cannot follow/);
    expectRule("globalThis[k]()", "scan.unresolved");
    expectRule('require("fs")[method]("a")', "scan.unresolved");
    expectRule("JSON.stringify(process)", "scan.unresolved");
    expectRule("Object.entries(globalThis)", "scan.unresolved");
    expectRule("const o = { ...process };", "scan.unresolved");
    expectRule("['process'].map((n) => globalThis[n])", "scan.unresolved");
  });
});

describe("more routes", () => {
  it("object methods, classes, callbacks and promises carry aliases", () => {
    expectRule("const o = { get() { return process } }; o.get().env", "env.read");
    expectRule("class A { static g() { return process } } A.g().env", "env.read");
    expectRule("class A { g() { return process } } new A().g().env", "env.read");
    expectRule("[process].forEach((p) => p.env)", "env.read");
    expectRule("Promise.resolve(process).then((p) => p.env)", "env.read");
    expectRule("const mk = () => () => process; mk()().env", "env.read");
    expectRule('import { env } from "node:process"; env.X', "env.read");
  });
  it("reading the environment through /proc fails too", () => {
    expectRule('require("fs").readFileSync("/proc/self/environ", "utf8")', "env.read");
  });
  it("decoders assemble payloads", () => {
    const codes = [...Buffer.from('require("vm")')].join(",");
    expectRule(`const s = new TextDecoder().decode(new Uint8Array([${codes}]));`, "payload.code");
    expectRule(`const s = Buffer.from([${codes}]).toString();`, "payload.code");
    const b64 = B64_CHUNK.repeat(3);
    expectRule(
      `let s = "${b64.slice(0, 90)}";\ns += "${b64.slice(90, 180)}";\ns += "${b64.slice(180, 230)}";`,
      "payload.encoded",
    );
  });
  it("timer delays given as strings or by the input", () => {
    expectRule("setTimeout(f, '6000')", "timer.long");
    expectRule(
      'const input = JSON.parse(require("fs").readFileSync(0, "utf8")); setTimeout(f, input.delay);',
      "timer.long",
    );
    expectRule(
      'const input = JSON.parse(require("fs").readFileSync(0, "utf8")); Array.from({ length: input.n }, (_, i) => i);',
      "loop.input",
    );
  });
  it("writing to stdout or stderr through fs is output, not a file write", () => {
    expectClean('require("fs").writeSync(1, JSON.stringify({ a: 1 }));');
    expectClean('const fs = require("fs"); fs.writeSync(process.stdout.fd, "x"); fs.writeFileSync(2, "warn");');
    expectRule('require("fs").writeSync(fd, "x");', "fs.write");
  });
});

describe("benign look-alikes pass", () => {
  it("the word eval in a string or a comment", () => {
    expectClean(
      '// never eval(user input)\nconst note = "eval(x) is dangerous; new Function too";\nconsole.log(note);',
    );
  });
  it("a property named env on the tool's own object, and a local named process", () => {
    expectClean('const tool = { env: "prod" }; console.log(tool.env); const cfg = { process: 1 }; cfg.process;');
    expectClean("function run(process) { return process.env } run({ env: 1 });");
  });
  it("a short base64 constant", () => {
    expectClean(
      'const DOT = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";',
    );
  });
  it("a long readable file", () => {
    const body = Array.from(
      { length: 600 },
      (_, i) => `const value${i} = Math.max(${i}, 3); // step ${i} of the long readable file`,
    ).join("\n");
    expect(body.length).toBeGreaterThan(40_000);
    expectClean(body);
  });
  it("setTimeout(fn, 5000) and loops over a small constant", () => {
    expectClean("setTimeout(() => console.log('x'), 5000);");
    expectClean("for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) console.log(i * j);");
    expectClean("for (const a of [1, 2, 3]) for (const b of [1, 2, 3]) console.log(a + b);");
  });
  it("typeof and instanceof Function, JSON and Math work", () => {
    expectClean(
      "const f = (x) => x; console.log(typeof f === 'function', f instanceof Function, JSON.stringify({ a: Math.max(1, 2) }));",
    );
    expectClean("const o = JSON.parse('{}'); if (o.constructor === Object) console.log('plain');");
  });
});

const js = (name: string, text: string): SkillResource => ({ name, media_type: "text/javascript", text });
function graph(files: SkillResource[], net: Net = "deny", entry = "tools/main.js") {
  return scanSkill({ resources: files, tools: [{ name: "main", entry, net }] });
}
const ruleAt = (r: ReturnType<typeof graph>) => r.findings.map((f) => [f.tool, f.resource, f.rule]);

describe("module graph", () => {
  it("a helper the entry requires is scanned as that tool's code, and its finding names both", () => {
    const r = graph([
      js("tools/main.js", 'const h = require("./lib/helper.js");\nconsole.log(h.run());\n'),
      js("tools/lib/helper.js", "exports.run = () => process.env.SECRET;\n"),
    ]);
    expect(r.verdict).toBe("failed");
    expect(ruleAt(r)).toEqual([["main", "tools/lib/helper.js", "env.read"]]);
    expect(r.tools[0]!.modules).toEqual(["tools/main.js", "tools/lib/helper.js"]);
    expect(r.resources.find((x) => x.name === "tools/lib/helper.js")).toMatchObject({
      verdict: "failed",
      tools: ["main"],
    });
    expect(r.resources.find((x) => x.name === "tools/main.js")).toMatchObject({ verdict: "passed" });
  });

  it("follows chains through import, export from, import() and extension-less names", () => {
    const r = graph([
      js("tools/main.js", 'import { a } from "./a";\nconsole.log(a);\n'),
      js("tools/a.js", 'export { b as a } from "../shared/b.js";\n'),
      js("shared/b.js", 'export const b = 1;\nawait import("./c/index.js");\n'),
      js("shared/c/index.js", 'import("./d");\n'),
      js("shared/c/d/index.js", 'require("fs").writeFileSync("x", "y");\n'),
    ]);
    expect(ruleAt(r)).toEqual([["main", "shared/c/d/index.js", "fs.write"]]);
  });

  it("scans each reached module with the net of the tool that reaches it", () => {
    const files = [
      js("tools/a.js", 'require("./net.js");\n'),
      js("tools/b.js", 'require("./net.js");\n'),
      js("tools/net.js", 'fetch("https://api.openvibe.services/x");\n'),
    ];
    const r = scanSkill({
      resources: files,
      tools: [
        { name: "a", entry: "tools/a.js", net: "openvibe-only" },
        { name: "b", entry: "tools/b.js", net: "deny" },
      ],
    });
    expect(ruleAt(r)).toEqual([
      ["a", "tools/net.js", "net.use"],
      ["b", "tools/net.js", "net.denied"],
    ]);
    expect(r.tools.map((t) => t.verdict)).toEqual(["flagged", "failed"]);
  });

  it("resolves bare packages inside the bundle's node_modules, by package.json main or index.js", () => {
    const files = [
      js(
        "tools/main.js",
        'const left = require("left-pad");\nconst s = require("@acme/str/trim");\nconsole.log(left, s);\n',
      ),
      { name: "node_modules/left-pad/package.json", media_type: "application/json", text: '{"main":"lib/pad.js"}' },
      js("node_modules/left-pad/lib/pad.js", "module.exports = (s) => s;\n"),
      js("node_modules/@acme/str/trim.js", 'module.exports = () => require("child_process");\n'),
    ];
    const r = graph(files);
    expect(ruleAt(r)).toEqual([["main", "node_modules/@acme/str/trim.js", "module.forbidden"]]);
    expect(r.tools[0]!.modules).toContain("node_modules/left-pad/lib/pad.js");
  });

  it("fails closed on what it cannot follow, each with its own rule", () => {
    const one = (code: string, extra: SkillResource[] = []) =>
      graph([js("tools/main.js", code), ...extra]).findings.map((f) => f.rule);
    expect(one('require("./gone.js");')).toEqual(["module.not_found"]);
    expect(one('require("../../etc/x.js");')).toEqual(["module.outside_bundle"]);
    expect(one('require("/usr/lib/node_modules/x");')).toEqual(["module.outside_bundle"]);
    expect(one('require("lodash");')).toEqual(["module.bare_missing"]);
    expect(one('import x from "#internal";')).toEqual(["module.not_found"]);
    expect(one("require(name);")).toEqual(["module.unresolved"]);
    expect(one('require("./a" + n);')).toEqual(["module.unresolved"]);
    expect(one('require.resolve("./a.js");')).toContain("module.loader");
    expect(one('require("module").createRequire(__filename)("./a.js");', [js("tools/a.js", "1;")])).toContain(
      "module.loader",
    );
    expect(one('import.meta.resolve("./a.js");')).toContain("module.loader");
    expect(one("delete require.cache[k];")).toContain("module.loader");
    expect(one('module.paths.push("/opt");')).toContain("module.loader");
    // deep in the graph too
    expect(one('require("./a.js");', [js("tools/a.js", 'require("b-pkg");')])).toEqual(["module.bare_missing"]);
  });

  it("code no entry reaches is scanned under the widest net, without a tool, and its graph too", () => {
    const r = graph(
      [
        js("tools/main.js", "console.log(1);\n"),
        js("tools/dead.js", 'require("./dead-helper.js");\n'),
        js("tools/dead-helper.js", "eval(process.argv[2]);\n"),
        js("tools/ok.js", 'fetch("https://example.org");\n'),
      ],
      "public",
    );
    expect(ruleAt(r)).toEqual([
      [undefined, "tools/dead-helper.js", "code.eval"],
      [undefined, "tools/ok.js", "net.use"],
    ]);
    expect(r.resources.find((x) => x.name === "tools/dead.js")).toMatchObject({ verdict: "passed", tools: [] });
  });

  it("requires of JSON data are followed but not parsed as code; builtins are left to the rules", () => {
    const r = graph([
      js(
        "tools/main.js",
        'const d = require("./data.json");\nconst fs = require("node:fs");\nconsole.log(d, fs.readFileSync(0, "utf8"));\n',
      ),
      { name: "tools/data.json", media_type: "application/json", text: '{"a":1}' },
    ]);
    expect(r.verdict).toBe("passed");
    expect(r.tools[0]!.modules).toEqual(["tools/main.js", "tools/data.json"]);
  });
});

describe("closed misses", () => {
  it("a char-code array spread into String.fromCharCode that decodes to code fails, even never run", () => {
    const codes = [...Buffer.from('require("child_process").exec("id")')].join(",");
    expectRule(`const a = [${codes}]; const s = String.fromCharCode(...a); console.log(s.length);`, "payload.code");
    expectRule(`String.fromCodePoint(...[${codes}]);`, "payload.code");
    expectClean("console.log(String.fromCharCode(...[72, 105]));");
  });
  it("Atomics.wait over 5000 ms, or with no timeout, is a long timer; 5000 passes", () => {
    expectRule("Atomics.wait(ia, 0, 0, 5001);", "timer.long");
    expectRule("const { wait } = Atomics; wait(ia, 0, 0, 60 * 1000);", "timer.long");
    expectRule("Atomics.wait(ia, 0, 0);", "timer.long");
    expectRule("globalThis.Atomics.waitAsync(ia, 0, 0, 1e9);", "timer.long");
    expectRule(
      'const i = JSON.parse(require("fs").readFileSync(0, "utf8")); Atomics.wait(ia, 0, 0, i.ms);',
      "timer.long",
    );
    expectClean("Atomics.wait(ia, 0, 0, 5000);");
  });
});
