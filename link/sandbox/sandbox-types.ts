// What a Sandbox is asked for: its options, and a job (its folder, entry, input, policy and limits).
import type { CgroupSupport } from "./cgroup";
import type { Limits, NetPolicy } from "./policy";

export type SandboxOptions = {
  /** The Node that runs tools (≥ 22); resolved automatically when absent. */
  node?: string;
  /** Hostname patterns `openvibe-only` may reach. */
  allowedHosts?: readonly string[];
  /** Operator name → "address:port" overrides for the egress proxy (tests map a local server here). */
  hosts?: Readonly<Record<string, string>>;
  resolve?: (host: string) => Promise<string[]>;
  /**
   * The Link's home (`openvibe-link run` passes it): this Sandbox's folder is made in that Link's own
   * folder, `<workRoot>/link-<hash of the home>/`. Absent (`openvibe-link exec`): a private folder
   * for this invocation under `<workRoot>/exec/`. Either way it is locked while this process lives
   * and removed by `close()`; one left by a dead process is removed by the next Sandbox.
   */
  linkHome?: string;
  /** The folder every Link of this user keeps its Sandbox folders in; `<tmpdir>/openvibe-link-<uid>` by default. */
  workRoot?: string;
  /** Force a memory enforcement (tests); detected by default. */
  cgroups?: CgroupSupport;
  /**
   * Keep a sandbox booted ahead of the next job, per `net` policy (`openvibe-link run`, `exec
   * --warm`). A job takes one through `newJobFolder({ net, limits })`; without one it runs cold.
   */
  warm?: boolean;
  /** With `warm`: how many idle sandboxes each policy keeps (one per job the Link runs at once). */
  warmDepth?: number;
  /** One job and done (`openvibe-link exec`): no standby is made for a next job. */
  single?: boolean;
};

/** A fresh job folder: `root` is private to the runner, `files` is what the tool sees as /job. */
export type JobFolder = { id: string; root: string; files: string };

/** `signal` withdraws the job: the sandbox is killed at once and the run ends `cancelled`. */
export type SandboxJob = {
  folder: JobFolder;
  entry: string;
  input: Uint8Array;
  net: NetPolicy;
  limits: Limits;
  signal?: AbortSignal;
  /**
   * Resolves once the job's result has been handed on (posted to the server): the work its end
   * starts in the background (its sandbox's teardown, the next warm boot: forks and file system
   * calls that hold up this process) waits for it, at most half a second (./run.ts).
   */
  settled?: Promise<unknown>;
  /** Called once the tool has its input and runs (not for a job refused before it started). */
  running?: () => void;
};
