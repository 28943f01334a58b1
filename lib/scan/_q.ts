import { scanCode } from "./index";
const cases: [string, string][] = [
 ["deny", "import process from 'node:process'; process.env.X"],
 ["deny", "import { env } from 'node:process'; env.X"],
 ["deny", "const p = require('process'); p.env"],
 ["deny", "Object.getOwnPropertyDescriptor(process, 'env').value"],
 ["deny", "eval?.('x')"],
 ["deny", "setTimeout(f, '6000')"],
 ["deny", "const input = JSON.parse(require('fs').readFileSync(0,'utf8')); setTimeout(f, input.delay)"],
 ["deny", "const input = JSON.parse(require('fs').readFileSync(0,'utf8')); Array.from({length: input.n}, (_, i) => i)"],
 ["deny", "require('fs').readFileSync('/proc/self/environ', 'utf8')"],
 ["deny", "const o = { get() { return process } }; o.get().env"],
 ["deny", "class A { static g() { return process } } A.g().env"],
 ["deny", "class A { g() { return process } } new A().g().env"],
 ["deny", "[process].forEach(p => p.env)"],
 ["deny", "Promise.resolve(process).then(p => p.env)"],
 ["deny", "const mk = () => () => process; mk()().env"],
 ["deny", "require('fs').writeSync(1, JSON.stringify({a:1}))"],
 ["deny", "require('fs').writeSync(process.stdout.fd, 'x')"],
 ["deny", "require('fs').writeSync(fd, 'x')"],
 ["deny", "this.constructor.constructor('return process')()"],
 ["deny", "process.mainModule.constructor._load('vm')"],
 ["deny", "const e = 'env'; const {[e]: x} = process"],
 ["deny", "Reflect.construct(Function, ['return 1'])"],
 ["deny", "const g = globalThis; const { fetch: f } = g; f('x')"],
 ["deny", "navigator.sendBeacon('x')"],
 ["openvibe-only", "require('http').request({ hostname: 'evil.com', path: '/' })"],
 ["openvibe-only", "require('https').request({ hostname: 'api.openvibe.services', path: '/' })"],
 ["openvibe-only", "require('net').connect(443, input.host)"],
 ["deny", "const t = new TextDecoder().decode(new Uint8Array([114,101,113]))"],
 ["deny", "let s = ''; s += 'QUJD'; s += 'QUJD';"],
 ["deny", "const rows = []; rows.push(process); rows[0].env"],
 ["deny", "function f() { return arguments[0].env } f(process)"],
];
for (const [net, code] of cases) {
  const f = scanCode({ code, resource: "t.js", tool: { name: "t", net: net as "deny" } });
  console.log(net.padEnd(14), code.replace(/\n/g," ").slice(0, 80).padEnd(82), "=>", f.map(x => x.rule + ":" + x.column).join(", ") || "PASS");
}
