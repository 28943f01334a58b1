// A shell as a reader of the docs has one: the project's three commands on PATH the way npm's bin
// links put them there (a folder of symlinks to each entry of the cli and link packages' "bin"),
// and bash running a command exactly as a guide prints it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { expect } from "playwright/test";
import { tempDir } from "../../test/helpers/temp-dir";

/** The commands `npm install -g openvibe openvibe-link` puts on PATH: name → file, from "bin". */
function packageBins(): [string, string][] {
  return ["cli", "link"].flatMap((dir) => {
    const { bin } = JSON.parse(readFileSync(path.resolve(dir, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    return Object.entries(bin).map(([name, file]): [string, string] => [name, path.resolve(dir, file)]);
  });
}

export type Shell = {
  /** The folder commands run in (a fresh one) and the user's home. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  run(command: string): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Starts a command that keeps running (e.g. `openvibe-link run`); stopped by `stop()`. */
  start(command: string): ChildProcess;
  stop(): Promise<void>;
};

export function shell(label: string): Shell {
  const home = tempDir(label);
  const bin = path.join(home, ".local", "bin");
  mkdirSync(bin, { recursive: true });
  const bins = packageBins();
  expect(bins.map(([name]) => name).sort()).toEqual(["openvibe", "openvibe-link", "openvibe-scan"]);
  for (const [name, file] of bins) symlinkSync(file, path.join(bin, name));
  const env = {
    PATH: [bin, path.dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
    HOME: home,
    TMPDIR: process.env.TMPDIR,
    OPENVIBE_LINK_HOME: path.join(home, ".openvibe-link"),
  } as unknown as NodeJS.ProcessEnv;
  const started: ChildProcess[] = [];
  return {
    cwd: home,
    env,
    run: (command) =>
      new Promise((resolve) => {
        const child = spawn("bash", ["-c", command], { cwd: home, env });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      }),
    start: (command) => {
      // Its own process group, so stop() signals the command itself, not only the bash around it.
      const child = spawn("bash", ["-c", command], { cwd: home, env, stdio: "ignore", detached: true });
      started.push(child);
      return child;
    },
    stop: () =>
      Promise.all(
        started.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              // SIGTERM first, so a Link's sandbox removes its own folders; SIGKILL if it hangs.
              const timer = setTimeout(() => process.kill(-c.pid!, "SIGKILL"), 10_000);
              c.once("exit", () => {
                clearTimeout(timer);
                resolve();
              });
              process.kill(-c.pid!, "SIGTERM");
            }),
        ),
      ).then(() => undefined),
  };
}
