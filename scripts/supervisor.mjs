// Runs `npm start`'s processes (web server, worker host, local Link) as children with prefixed
// output and keeps them running: a child that exits is started again after a backoff that doubles
// with each crash in a row (1 s, 2 s, 4 s … 30 s) and resets once it has run a while, so one
// part failing never takes the rest down. A child that keeps crashing is reported in one clear
// line. Ctrl-C (SIGINT/SIGTERM) stops every child, and what each spawned, and then this process.
import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Starts a child whose output lines are prefixed with its name. */
export function startChild(name, command, args, env, { cwd = ROOT } = {}) {
  // Its own process group, so stopping it also stops what it spawned (next's server process).
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const tag = `[${name}]`.padEnd(10);
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    readline.createInterface({ input: stream }).on("line", (line) => out.write(`${tag}${line}\n`));
  }
  child.label = name;
  child.exited = new Promise((resolve) => {
    child.on("error", (err) => resolve({ code: null, signal: null, error: err }));
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
  return child;
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}

const isLive = (c) => c.pid !== undefined && c.exitCode === null && c.signalCode === null;

/** Sends SIGTERM to every live child, SIGKILL after graceMs, and resolves when all have exited. */
export async function stopChildren(children, graceMs = 10_000) {
  const live = children.filter(isLive);
  for (const c of live) signalGroup(c, "SIGTERM");
  const timer = setTimeout(() => live.forEach((c) => signalGroup(c, "SIGKILL")), graceMs);
  await Promise.all(live.map((c) => c.exited));
  clearTimeout(timer);
  // What a child left behind in its group (e.g. a server process) goes too.
  for (const c of children) if (c.pid !== undefined) signalGroup(c, "SIGKILL");
}

const describeExit = ({ code, signal, error }) => (error ? error.message : (signal ?? `exit ${code}`));
const seconds = (ms) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

export const DEFAULT_POLICY = {
  /** First restart delay; doubled for each crash in a row. */
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  /** A child that ran this long before exiting starts a new streak (first delay again). */
  stableAfterMs: 60_000,
  /** After this many crashes in a row the child "keeps crashing" and says so (and every 10 after). */
  reportAfterCrashes: 5,
  /** SIGTERM → SIGKILL grace when stopping. */
  stopGraceMs: 10_000,
};

/**
 * Keeps named children running. `add(name, spec)` starts one; spec: `{ command, args, env, cwd,
 * critical }`. A `critical` child that exits before `markReady(name)` ends everything with
 * `onFatal` (a web server that cannot start is not worth restarting in a loop).
 */
export class Supervisor {
  /**
   * @param {{
   *   policy?: Partial<typeof DEFAULT_POLICY>,
   *   onFatal?: (service: { name: string }, exit: { code: number | null, signal: string | null }) => void,
   *   print?: (line: string) => void,
   * }} [options]
   */
  constructor({ policy = {}, onFatal = () => {}, print = (line) => console.error(line) } = {}) {
    this.policy = { ...DEFAULT_POLICY, ...policy };
    this.onFatal = onFatal;
    this.print = print;
    this.services = new Map();
    this.stopping = null;
  }

  add(name, spec) {
    if (this.services.has(name)) throw new Error(`${name} is already supervised`);
    // delays: each restart's wait, in order (what a person would see in the `!` lines).
    const service = { name, spec, child: null, startedAt: 0, ready: false, crashes: 0, delays: [], timer: null };
    this.services.set(name, service);
    this.#launch(service);
    return service;
  }

  /** The live child of a service (its pid changes with each restart). */
  child(name) {
    return this.services.get(name)?.child ?? null;
  }

  markReady(name) {
    const service = this.services.get(name);
    if (service) service.ready = true;
  }

  #launch(service) {
    const { command, args, env, cwd } = service.spec;
    const child = startChild(service.name, command, args, env, { cwd });
    service.child = child;
    service.startedAt = Date.now();
    void child.exited.then((exit) => this.#exited(service, child, exit));
  }

  #exited(service, child, exit) {
    // Whatever the child left in its group (next's server process) goes with it.
    if (child.pid !== undefined) signalGroup(child, "SIGKILL");
    if (this.stopping || service.child !== child) return;
    const ranMs = Date.now() - service.startedAt;
    if (service.spec.critical && !service.ready) {
      this.print(`✖ ${service.name} stopped (${describeExit(exit)}) before it was ready; stopping the rest`);
      this.onFatal(service, exit);
      return;
    }
    service.crashes = ranMs >= this.policy.stableAfterMs ? 1 : service.crashes + 1;
    const delay = Math.min(this.policy.initialDelayMs * 2 ** (service.crashes - 1), this.policy.maxDelayMs);
    service.delays.push(delay);
    const { reportAfterCrashes: n } = this.policy;
    if (service.crashes >= n && (service.crashes - n) % 10 === 0) {
      this.print(
        `✖ ${service.name} keeps crashing: ${service.crashes} times in a row, each within ` +
          `${seconds(this.policy.stableAfterMs)} of starting (last: ${describeExit(exit)}). Its output above ` +
          `says why. Retrying in ${seconds(delay)}, then every ${seconds(this.policy.maxDelayMs)} at most; Ctrl-C stops everything.`,
      );
    } else {
      this.print(
        `! ${service.name} stopped (${describeExit(exit)}) after ${seconds(ranMs)}; restarting it in ${seconds(delay)}` +
          ` (restart ${service.delays.length}); the rest keeps running`,
      );
    }
    service.timer = setTimeout(() => {
      service.timer = null;
      if (!this.stopping) this.#launch(service);
    }, delay);
  }

  /** Stops every child (pending restarts are cancelled); resolves once all have exited. */
  stopAll() {
    this.stopping ??= (async () => {
      for (const service of this.services.values()) if (service.timer) clearTimeout(service.timer);
      const children = [...this.services.values()].map((s) => s.child).filter(Boolean);
      await stopChildren(children, this.policy.stopGraceMs);
    })();
    return this.stopping;
  }

  /** Ctrl-C and SIGTERM stop everything and exit 0; a second Ctrl-C kills at once. */
  stopOnSignals({ exit = (code) => process.exit(code) } = {}) {
    for (const signal of ["SIGINT", "SIGTERM"]) {
      process.on(signal, () => {
        if (this.stopping) {
          for (const s of this.services.values()) if (s.child) signalGroup(s.child, "SIGKILL");
          return;
        }
        this.print(`▸ ${signal === "SIGINT" ? "Ctrl-C" : signal}: stopping ${[...this.services.keys()].join(", ")}`);
        void this.stopAll().then(() => exit(0));
      });
    }
  }
}
