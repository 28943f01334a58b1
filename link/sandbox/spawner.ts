// Standby shells started by a helper process (./spawner.cjs) instead of by the Link itself. libuv
// forks the whole Link for each child and blocks its event loop until the child has exec'd: 5 ms a
// standby on average in a bench:run profile of the Link (a fifth of its CPU), up to 28 ms on a
// busy machine, right when the next job's poll answer or result is due; and the Link's pages stay
// copy-on-write meanwhile. The helper is a small process, so its forks are cheap, and they block
// only its own loop. It sends each child's pipes back over its IPC channel (the descriptors
// themselves; it keeps no copy) and its exit as a message; a kill goes through it, so it always
// names the child it started. A helper that dies takes its children with it (bwrap
// --die-with-parent; a shell still waiting reads the end of its closed pipes), and the next spawn
// starts a new one.
import { fork, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { fileURLToPath } from "node:url";
import { EMPTY_ENV } from "./bwrap";
import type { Socket } from "node:net";

/** What the sandbox code uses of a child, whoever started it. */
export type SandboxChild = Pick<
  ChildProcess,
  | "pid"
  | "exitCode"
  | "signalCode"
  | "stdio"
  | "stdin"
  | "stdout"
  | "stderr"
  | "kill"
  | "on"
  | "once"
  | "off"
  | "ref"
  | "unref"
>;

export type SpawnRequest = {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** How many pipes: the child's descriptors 0 … fds-1. */
  fds: number;
  /** The descriptors the Link reads (a pipe it only writes is not waited for by `close`). */
  read: number[];
  uid?: number;
  gid?: number;
};

/** How long a closing spawner's helper gets to end its children and exit before it is killed. */
const CLOSE_WAIT_MS = 2_000;

type Answer = {
  id: number;
  pid?: number;
  fd?: number;
  code?: number | null;
  signal?: NodeJS.Signals | null;
  error?: string;
};

/** The helper's script: beside this module in the source tree, and beside the bundle in dist/. */
const HELPER = new URL("./spawner.cjs", import.meta.url);

class RemoteChild extends EventEmitter {
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdio: (Socket | null)[];
  /** Resolves with the pid once every pipe has arrived; rejects when the child could not start. */
  readonly spawned: Promise<number>;
  private settleSpawn!: { resolve: (pid: number) => void; reject: (err: Error) => void };
  private refed = true;
  private exited = false;
  private openReads: number;

  constructor(
    readonly id: number,
    private readonly request: SpawnRequest,
    private readonly spawner: Spawner,
  ) {
    super();
    this.stdio = Array.from({ length: request.fds }, () => null);
    this.openReads = request.read.length;
    this.spawned = new Promise<number>((resolve, reject) => (this.settleSpawn = { resolve, reject }));
    this.spawned.catch(() => {});
  }

  get stdin(): Socket | null {
    return this.stdio[0] ?? null;
  }
  get stdout(): Socket | null {
    return this.stdio[1] ?? null;
  }
  get stderr(): Socket | null {
    return this.stdio[2] ?? null;
  }

  kill(signal: NodeJS.Signals = "SIGTERM"): boolean {
    if (this.exited) return false;
    return this.spawner.send({ op: "kill", id: this.id, signal });
  }

  ref(): void {
    this.refed = true;
    for (const pipe of this.stdio) pipe?.ref();
    this.spawner.updateRef();
  }

  unref(): void {
    this.refed = false;
    for (const pipe of this.stdio) pipe?.unref();
    this.spawner.updateRef();
  }

  /** Still owed an exit while held by the Link. */
  get holdsLoop(): boolean {
    return this.refed && !this.exited;
  }

  answer(message: Answer, handle: unknown): void {
    if (message.error !== undefined) return this.failed(new Error(message.error));
    if (message.pid !== undefined) this.pid = message.pid;
    else if (message.fd !== undefined) this.pipe(message.fd, handle as Socket | undefined);
    else this.exit(message.code ?? null, message.signal ?? null);
  }

  private pipe(fd: number, socket: Socket | undefined): void {
    if (fd < 0 || fd >= this.stdio.length || this.stdio[fd]) {
      socket?.destroy();
      return;
    }
    // The helper lost it (the child ended before its pipe was sent): the child is no use.
    if (!socket) return this.failed(new Error("the child ended before all its pipes were handed over"));
    this.stdio[fd] = socket;
    if (!this.refed) socket.unref();
    if (this.request.read.includes(fd)) socket.once("close", () => this.readClosed());
    // A pipe the Link only writes still takes what the child may write back, so its end is seen.
    else socket.resume();
    if (this.pid !== undefined && this.stdio.every(Boolean)) this.settleSpawn.resolve(this.pid);
  }

  private readClosed(): void {
    this.openReads -= 1;
    this.maybeClose();
  }

  private exit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return;
    this.exited = true;
    this.settleSpawn.reject(new Error("the child ended before all its pipes were handed over"));
    this.exitCode = code;
    this.signalCode = signal;
    this.spawner.forget(this);
    this.emit("exit", code, signal);
    // As Node's own ChildProcess does: a pipe nobody reads is drained, so that it can close.
    for (const fd of this.request.read) if (this.stdio[fd]?.readableFlowing === null) this.stdio[fd]!.resume();
    this.maybeClose();
  }

  private maybeClose(): void {
    if (this.exited && this.openReads <= 0) this.emit("close", this.exitCode, this.signalCode);
  }

  failed(error: Error): void {
    this.settleSpawn.reject(error);
    this.kill("SIGKILL");
    if (this.listenerCount("error")) this.emit("error", error);
    for (const pipe of this.stdio) pipe?.destroy();
    this.openReads = 0;
    this.exit(null, "SIGKILL");
  }
}

export class Spawner {
  private helper: ChildProcess | undefined;
  private readonly children = new Map<number, RemoteChild>();
  private nextId = 1;
  private closed = false;

  /** Starts `request` through the helper (started first if none runs). */
  spawn(request: SpawnRequest): SandboxChild {
    const child = new RemoteChild(this.nextId++, request, this);
    // Its `on` and `off` return a RemoteChild, not a whole ChildProcess: the only difference.
    const asChild = child as unknown as SandboxChild;
    if (this.closed) {
      child.failed(new Error("the spawner is closed"));
      return asChild;
    }
    this.children.set(child.id, child);
    const { file, args, env, fds, uid, gid } = request;
    if (!this.send({ op: "spawn", id: child.id, file, args, env, fds, uid, gid }, true))
      child.failed(new Error("the spawner is not running"));
    return asChild;
  }

  /** The pid, for a child from `spawn` once its pipes are here; a child of `child_process` has it already. */
  static spawned(child: SandboxChild): Promise<number> {
    if (child instanceof RemoteChild) return child.spawned;
    return child.pid ? Promise.resolve(child.pid) : Promise.reject(new Error("the standby did not start"));
  }

  /** Sends to the helper; `start`: starting one if none runs (a kill never needs a new one). */
  send(message: object, start = false): boolean {
    const helper = start ? this.running() : this.helper;
    if (!helper?.connected) return false;
    helper.send(message, undefined, {}, () => {});
    this.updateRef();
    return true;
  }

  forget(child: RemoteChild): void {
    this.children.delete(child.id);
    this.updateRef();
  }

  /** The helper keeps the Link alive only while a child it holds is owed an exit. */
  updateRef(): void {
    const helper = this.helper;
    if (!helper) return;
    const hold = [...this.children.values()].some((child) => child.holdsLoop);
    const channel = helper.channel as { ref?: () => void; unref?: () => void } | null | undefined;
    if (hold) {
      helper.ref();
      channel?.ref?.();
    } else {
      helper.unref();
      channel?.unref?.();
    }
  }

  private running(): ChildProcess | undefined {
    if (this.closed) return undefined;
    if (this.helper) return this.helper;
    const helper = fork(fileURLToPath(HELPER), [], {
      execArgv: [],
      env: EMPTY_ENV,
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      serialization: "json",
    });
    helper.on("message", (message: Answer, handle: unknown) => {
      const child = this.children.get(message.id);
      if (child) child.answer(message, handle);
      else (handle as Socket | undefined)?.destroy?.();
    });
    helper.once("exit", () => {
      if (this.helper === helper) this.helper = undefined;
      for (const child of [...this.children.values()]) child.failed(new Error("the spawner ended"));
    });
    helper.on("error", () => {});
    this.helper = helper;
    return helper;
  }

  async close(): Promise<void> {
    this.closed = true;
    const helper = this.helper;
    if (!helper || helper.exitCode !== null || helper.signalCode !== null) return;
    helper.ref();
    await new Promise<void>((resolve) => {
      // It kills its children and exits once the channel closes; one that does not is killed.
      const stuck = setTimeout(() => helper.kill("SIGKILL"), CLOSE_WAIT_MS);
      helper.once("exit", () => {
        clearTimeout(stuck);
        resolve();
      });
      if (helper.connected) helper.disconnect();
      else helper.kill("SIGKILL");
    });
  }
}
