// npm start's supervisor on small real child processes: a SIGKILLed worker comes back while the web
// keeps answering, a crash loop backs off and is reported, a web that cannot start ends everything,
// and Ctrl-C stops every child together with what each spawned.
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "./provision.mjs";
import { Supervisor } from "./supervisor.mjs";

const node = process.execPath;
const FAST = { initialDelayMs: 100, maxDelayMs: 800, stableAfterMs: 60_000, reportAfterCrashes: 4, stopGraceMs: 2_000 };
const WORKER = "console.log('worker up'); setInterval(() => {}, 1 << 30);";
const webScript = (port: number) =>
  `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1', () => console.log('web up'));`;

const supervisors: Supervisor[] = [];
function supervisor(options: ConstructorParameters<typeof Supervisor>[0] = {}) {
  const lines: string[] = [];
  const s = new Supervisor({ policy: FAST, print: (line: string) => lines.push(line), ...options });
  supervisors.push(s);
  return { s, lines };
}
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.stopAll()));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) }).then(
    (r) => r.ok,
    () => false,
  );

describe("Supervisor", () => {
  it("restarts a SIGKILLed worker with backoff while the web keeps answering", async () => {
    const port = await freePort();
    const { s, lines } = supervisor();
    s.add("web", { command: node, args: ["-e", webScript(port)], env: process.env, critical: true });
    s.add("workers", { command: node, args: ["-e", WORKER], env: process.env });
    for (let i = 0; i < 400 && !(await answers(port)); i++) await sleep(50);
    expect(await answers(port)).toBe(true);
    s.markReady("web");
    const web = s.child("web")!.pid!;
    const first = s.child("workers")!.pid!;

    let failures = 0;
    let probes = 0;
    let probing = true;
    const prober = (async () => {
      while (probing) {
        probes++;
        if (!(await answers(port))) failures++;
        await sleep(20);
      }
    })();

    process.kill(first, "SIGKILL");
    const second = await until("a new worker", () => {
      const pid = s.child("workers")?.pid;
      return pid && pid !== first && alive(pid) ? pid : null;
    });
    // And once more: the second crash in a row waits twice as long.
    process.kill(second, "SIGKILL");
    await until("a third worker", () => {
      const pid = s.child("workers")?.pid;
      return pid && pid !== second && alive(pid) ? pid : null;
    });
    probing = false;
    await prober;

    expect(alive(first)).toBe(false);
    expect(s.child("web")!.pid).toBe(web);
    expect(failures).toBe(0);
    expect(probes).toBeGreaterThan(3);
    expect(s.services.get("workers")!.delays).toEqual([100, 200]);
    expect(lines.filter((l) => l.startsWith("! workers stopped (SIGKILL)"))).toHaveLength(2);
    expect(lines.join("\n")).toContain("restarting it in 0.1 s (restart 1); the rest keeps running");
  });

  it("reports a child that keeps crashing in one clear line, and caps its backoff", async () => {
    const { s, lines } = supervisor();
    s.add("workers", { command: node, args: ["-e", "console.error('no Redis'); process.exit(3)"], env: process.env });
    await until("the crash report", () => lines.find((l) => l.includes("keeps crashing")), 30_000);
    const report = lines.find((l) => l.includes("keeps crashing"))!;
    expect(report).toMatch(
      /^✖ workers keeps crashing: 4 times in a row, each within 60 s of starting \(last: exit 3\)/,
    );
    expect(report).toContain("Ctrl-C stops everything");
    await until("two more restarts", () => s.services.get("workers")!.delays.length >= 6, 30_000);
    expect(s.services.get("workers")!.delays.slice(0, 6)).toEqual([100, 200, 400, 800, 800, 800]);
  });

  it("starts a new streak once a child has run for a while", async () => {
    const { s } = supervisor({ policy: { ...FAST, stableAfterMs: 150 } });
    s.add("link", { command: node, args: ["-e", "setTimeout(() => process.exit(1), 400)"], env: process.env });
    await until("three restarts", () => s.services.get("link")!.delays.length >= 3, 30_000);
    expect(s.services.get("link")!.delays.slice(0, 3)).toEqual([100, 100, 100]);
  });

  it("ends everything when a critical child dies before it was ready", async () => {
    let fatal = "";
    const { s, lines } = supervisor({ onFatal: (service: { name: string }) => (fatal = service.name) });
    s.add("workers", { command: node, args: ["-e", WORKER], env: process.env });
    s.add("web", { command: node, args: ["-e", "process.exit(1)"], env: process.env, critical: true });
    await until("the fatal report", () => fatal);
    expect(fatal).toBe("web");
    expect(lines).toContain("✖ web stopped (exit 1) before it was ready; stopping the rest");
    expect(s.services.get("web")!.delays).toEqual([]);
  });
});

describe("Ctrl-C", () => {
  it("stops every child and what it spawned, then exits 0", async () => {
    const supervisorUrl = pathToFileURL(path.join(import.meta.dirname, "supervisor.mjs")).href;
    // A worker that spawns a grandchild of its own, like next start spawning its server.
    const parentOfOrphan = `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' }); console.log('grandchild ' + c.pid); setInterval(() => {}, 1 << 30);`;
    const script = `
      const { Supervisor } = await import(${JSON.stringify(supervisorUrl)});
      const s = new Supervisor();
      s.stopOnSignals();
      s.add("workers", { command: process.execPath, args: ["-e", ${JSON.stringify(parentOfOrphan)}], env: process.env });
      s.add("link", { command: process.execPath, args: ["-e", ${JSON.stringify(WORKER)}], env: process.env });
      setTimeout(() => console.log("pids " + JSON.stringify([s.child("workers").pid, s.child("link").pid])), 300);
    `;
    const start = spawn(node, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    start.stdout.on("data", (d) => (out += d));
    start.stderr.on("data", (d) => (out += d));
    const pids = await until("the children", () => {
      const grandchild = /grandchild (\d+)/.exec(out)?.[1];
      const children = /pids (\[[^\]]+\])/.exec(out)?.[1];
      return grandchild && children ? [...(JSON.parse(children) as number[]), Number(grandchild)] : null;
    });
    expect(pids.every(alive)).toBe(true);

    start.kill("SIGINT");
    const [code] = (await once(start, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(out).toContain("▸ Ctrl-C: stopping workers, link");
    await until("every process to be gone", () => pids.every((pid) => !alive(pid)), 5_000);
  });
});
