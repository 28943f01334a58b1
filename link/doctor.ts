// `openvibe-link doctor`: checks, one by one, what the sandbox needs on this machine — bubblewrap,
// user namespaces, a memory cgroup, a Node with the permission model — and ends by running a
// trivial tool in the real sandbox. For each thing missing it prints the fix for Debian/Ubuntu,
// Fedora and macOS. On macOS the answer is a Linux VM: the Link never runs a tool unsandboxed.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { detectCgroups } from "./sandbox/cgroup";
import { EMPTY_ENV, resolveToolNode, systemTool } from "./sandbox/bwrap";
import { parseLimits } from "./sandbox/policy";
import { Sandbox } from "./sandbox/run";
import { slotPlan } from "./remote/slots";

type Fix = { debian: string; fedora: string; macos: string };
/** `warn`: the Link runs, with a weaker guarantee it names. `fail`: no tool can run. */
type Check = { name: string; status: "ok" | "warn" | "fail"; detail: string; fix?: Fix };
type Out = { line(text: string): void };

const MACOS =
  "The sandbox is Linux's (bubblewrap, namespaces, cgroups): run the Link in a Linux VM — " +
  "`brew install lima && limactl start --name=openvibe template://ubuntu-lts && limactl shell openvibe`, " +
  "then inside it `sudo apt-get install -y bubblewrap && npx openvibe-link doctor`.";

const FIXES = {
  bwrap: {
    debian: "sudo apt-get install -y bubblewrap util-linux",
    fedora: "sudo dnf install -y bubblewrap util-linux",
    macos: MACOS,
  },
  userns: {
    debian:
      "sudo sysctl -w kernel.unprivileged_userns_clone=1 (Debian) or, on Ubuntu 24.04+, " +
      "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (keep it: a file in /etc/sysctl.d/)",
    fedora: "sudo sysctl -w user.max_user_namespaces=15000 (keep it: a file in /etc/sysctl.d/)",
    macos: MACOS,
  },
  cgroup: {
    debian: "run the Link in a delegated cgroup: systemd-run --user --scope -p Delegate=yes openvibe-link run",
    fedora: "run the Link in a delegated cgroup: systemd-run --user --scope -p Delegate=yes openvibe-link run",
    macos: MACOS,
  },
  node: {
    debian:
      "on Linux x64 reinstall the Link with optional dependencies (npm install -g openvibe-link), else " +
      "curl -fsSL https://deb.nodesource.com/setup_22.x | sudo -E bash - && sudo apt-get install -y nodejs",
    fedora: "sudo dnf install -y nodejs22 (or reinstall the Link with optional dependencies on x64)",
    macos: MACOS,
  },
} satisfies Record<string, Fix>;

function message(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).trim().split("\n")[0] ?? "";
}

function checkBwrap(): Check {
  try {
    const bwrap = systemTool("bwrap");
    systemTool("prlimit");
    const version = execFileSync(bwrap, ["--version"], { encoding: "utf8", env: EMPTY_ENV }).trim();
    return { name: "bubblewrap", status: "ok", detail: `${bwrap} (${version})` };
  } catch (err) {
    return { name: "bubblewrap", status: "fail", detail: message(err), fix: FIXES.bwrap };
  }
}

function readSetting(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}

function checkUserNamespaces(bwrapOk: boolean): Check {
  const name = "user namespaces";
  if (readSetting("/proc/sys/user/max_user_namespaces") === "0") {
    return { name, status: "fail", detail: "user.max_user_namespaces is 0", fix: FIXES.userns };
  }
  if (readSetting("/proc/sys/kernel/unprivileged_userns_clone") === "0" && process.getuid?.() !== 0) {
    return { name, status: "fail", detail: "kernel.unprivileged_userns_clone is 0", fix: FIXES.userns };
  }
  if (!bwrapOk) return { name, status: "warn", detail: "not tried: bubblewrap is missing" };
  try {
    execFileSync(systemTool("bwrap"), ["--unshare-all", "--unshare-user", "--die-with-parent", "--ro-bind", "/", "/", "true"], {
      env: EMPTY_ENV,
      stdio: ["ignore", "ignore", "pipe"],
    });
    return { name, status: "ok", detail: "bwrap --unshare-all --unshare-user works" };
  } catch (err) {
    const stderr = err && typeof err === "object" && "stderr" in err ? String(err.stderr).trim() : message(err);
    return { name, status: "fail", detail: `bwrap cannot make a sandbox: ${stderr}`, fix: FIXES.userns };
  }
}

function checkCgroup(): Check {
  const support = detectCgroups();
  if (support.enforcement === "heap-rlimit") {
    return {
      name: "memory cgroup",
      status: "warn",
      detail: `none writable (${support.reason ?? "unknown"}): memory is capped by the V8 heap limit and rlimits only`,
      fix: FIXES.cgroup,
    };
  }
  const cpu = support.cpu
    ? `; sandboxes wait on idle CPU (cgroup v${support.cpu.version} cpu.idle)`
    : "; no writable cpu.idle, so sandboxes boot at nice 10";
  return { name: "memory cgroup", status: "ok", detail: `${support.enforcement} under ${support.memoryParent}${cpu}` };
}

function checkNode(): Check {
  try {
    const { node, major } = resolveToolNode();
    execFileSync(node, ["--permission", "-e", "0"], { env: EMPTY_ENV, stdio: "ignore" });
    return { name: "Node with the permission model", status: "ok", detail: `${node} (Node ${major})` };
  } catch (err) {
    return { name: "Node with the permission model", status: "fail", detail: message(err), fix: FIXES.node };
  }
}

/** The proof: the smallest tool, through the very sandbox jobs use. */
async function checkTrivialTool(): Promise<Check> {
  const name = "a tool in the sandbox";
  let sandbox: Sandbox | undefined;
  try {
    sandbox = await Sandbox.create();
    const folder = sandbox.newJobFolder();
    try {
      writeFileSync(path.join(folder.files, "tool.mjs"), 'process.stdout.write(JSON.stringify({ ok: true }));\n');
      const result = await sandbox.run({ folder, entry: "tool.mjs", input: new TextEncoder().encode("{}"), net: "deny", limits: parseLimits({}) });
      if (result.status !== "ok") return { name, status: "fail", detail: `status ${result.status}: ${result.stderr.slice(0, 200)}`, fix: FIXES.userns };
      return { name, status: "ok", detail: `ran in ${result.wall_ms} ms` };
    } finally {
      sandbox.removeJobFolder(folder);
    }
  } catch (err) {
    return { name, status: "fail", detail: message(err), fix: FIXES.userns };
  } finally {
    await sandbox?.close();
  }
}

function print(check: Check, out: Out): void {
  const mark = { ok: "✓", warn: "!", fail: "✖" }[check.status];
  out.line(`${mark} ${check.name}: ${check.detail}`);
  if (!check.fix || check.status === "ok") return;
  out.line(`    Debian/Ubuntu: ${check.fix.debian}`);
  out.line(`    Fedora:        ${check.fix.fedora}`);
  out.line(`    macOS:         ${check.fix.macos}`);
}

/** 0 when a tool can run here (warnings allowed), 1 otherwise. */
export async function doctor(out: Out): Promise<number> {
  if (process.platform !== "linux") {
    out.line(`✖ ${os.type()} has no Linux sandbox, and the Link never runs a tool without one.`);
    out.line(`    macOS: ${MACOS}`);
    out.line(`    Windows: run the Link in WSL 2 (Ubuntu), then: sudo apt-get install -y bubblewrap && npx openvibe-link doctor`);
    return 1;
  }
  const bwrap = checkBwrap();
  const checks = [bwrap, checkUserNamespaces(bwrap.status === "ok"), checkCgroup(), checkNode()];
  for (const check of checks) print(check, out);
  if (checks.some((check) => check.status === "fail")) {
    out.line("✖ This machine cannot run tools yet: fix the lines marked ✖, then run `openvibe-link doctor` again.");
    return 1;
  }
  const proof = await checkTrivialTool();
  print(proof, out);
  if (proof.status === "fail") return 1;
  const plan = slotPlan();
  print({ name: "jobs at once", status: "ok", detail: `${plan.jobs} (${plan.why}); \`run --jobs N --memory MIB\` sets them` }, out);
  out.line("✓ This machine can run skills' tools: `openvibe-link pair CODE`, then `openvibe-link skills on` and `openvibe-link run`.");
  return 0;
}
