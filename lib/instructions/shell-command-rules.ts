// What one shell command does by its program and words: administrator rights, miners, `-c`
// scripts, netcat and socat shells, persistence, destruction, turning off protections and
// package installs of look-alike names.
import type { Ctx } from "./context";
import type { Place } from "./rules";
import { isDownloader, type Add, type Cmd } from "./shell-cmd";
import { AUTOSTART_PATH, DANGEROUS_TARGETS, ELEVATORS, MINERS, PACKAGE_INSTALLERS, RC_FILE } from "./shell-words";
import { typosquatOf } from "./typosquat";

export function perCommand(c: Cmd, add: Add, ctx: Ctx, place: Place): void {
  const { name, args, line } = c;
  const joined = args.join(" ");
  if (c.elevated || ELEVATORS.has(name)) {
    add("admin.rights", line, c.text);
    ctx.asks.add("admin");
  }
  if (isDownloader(c)) ctx.asks.add("network");
  if (MINERS.has(name)) add("miner.crypto", line, c.text);
  // a `-c` string is a script of its own
  const dashC = args.findIndex((a) => a === "-c" || a === "-e" || a === "-Command" || a === "-command");
  if (dashC !== -1 && args[dashC + 1] && ctx.depth < 3) {
    const script = args[dashC + 1]!;
    const lang = /^python/.test(name)
      ? "python"
      : /^(?:pwsh|powershell)$/.test(name)
        ? "powershell"
        : /^(?:ba|z|da|k)?sh$/.test(name)
          ? "shell"
          : null;
    if (lang) {
      ctx.depth++;
      ctx.audit(lang, script, { resource: place.resource, line: place.line + line }, ctx);
      ctx.depth--;
    }
  }
  if (
    ["nc", "ncat", "netcat", "nc.traditional"].includes(name) &&
    args.some((a) => /^-(?:e|c)$|^--(?:exec|sh-exec)/.test(a))
  )
    add("shell.reverse_shell", line, c.text);
  if (name === "socat" && /\b(?:exec|system):/i.test(joined)) add("shell.reverse_shell", line, c.text);
  if (name === "crontab" && args.length === 1 && args[0] === "-e") add("persistence.schedule", line, c.text);
  else if (name === "crontab" && !(args.length === 1 && args[0] === "-l") && !(args.length === 0))
    add("persistence.install", line, c.text);
  if (name === "launchctl" && /^(?:load|bootstrap|submit|enable)$/.test(args[0] ?? ""))
    add("persistence.install", line, c.text);
  if (name === "systemctl" && args.includes("--user") && args.some((a) => a === "enable" || a === "start"))
    add("persistence.install", line, c.text);
  if (["cp", "mv", "ln", "install", "tee"].includes(name) && args.some((a) => AUTOSTART_PATH.test(a)))
    add("persistence.install", line, c.text);
  if (name === "tee" && args.some((a) => RC_FILE.test(a))) add("persistence.shell_rc", line, c.text);
  if (
    name === "rm" &&
    args.some((a) => /^-[a-zA-Z]*[rR]|^--recursive$/.test(a)) &&
    args.some((a) => isDangerousTarget(a))
  )
    add("destroy.home_or_root", line, c.text);
  if (args.includes("--no-preserve-root")) add("destroy.home_or_root", line, c.text);
  if (/^mkfs/.test(name) || (name === "dd" && args.some((a) => /^of=\/dev\/(?:sd|hd|nvme|disk|xvd|vd|mmcblk)/.test(a))))
    add("destroy.home_or_root", line, c.text);
  if (
    (name === "find" && isDangerousTarget(args[0] ?? "") && args.includes("-delete")) ||
    (name === "shred" && args.some(isDangerousTarget))
  )
    add("destroy.home_or_root", line, c.text);
  if (
    (name === "chmod" || name === "chown") &&
    args.some((a) => /^-[a-zA-Z]*R/.test(a)) &&
    args.some((a) => a === "/" || a === "/*")
  )
    add("destroy.home_or_root", line, c.text);
  if (name === "diskutil" && /^(?:eraseDisk|eraseVolume|zeroDisk|secureErase)$/.test(args[0] ?? ""))
    add("destroy.home_or_root", line, c.text);
  if (disablesSecurity(name, args)) add("security.disable", line, c.text);
  packageInstall(c, add, ctx);
}

function isDangerousTarget(raw: string): boolean {
  let t = raw.replace(/\$\{HOME\}/g, "$HOME").replace(/\$\{?USERPROFILE\}?/gi, "~");
  while (t.length > 1 && (t.endsWith("/*") || t.endsWith("/") || t.endsWith("\\")))
    t = t.endsWith("/*") ? t.slice(0, -2) : t.slice(0, -1);
  if (t === "" && raw.startsWith("/")) return true;
  return DANGEROUS_TARGETS.has(t) || DANGEROUS_TARGETS.has(t.replace(/^\$HOME/, "~"));
}

function disablesSecurity(name: string, args: string[]): boolean {
  const joined = args.join(" ");
  if (name === "xattr")
    return /com\.apple\.quarantine/.test(joined)
      ? args.some((a) => /^-[a-z]*[dc]/.test(a))
      : args.some((a) => /^-[a-z]*c/.test(a));
  if (name === "spctl") return /--(?:master|global)-disable|--disable\b|--add\b/.test(joined);
  if (name === "csrutil") return args[0] === "disable";
  if (name === "setenforce") return args[0] === "0" || /^permissive$/i.test(args[0] ?? "");
  if (name === "ufw") return args[0] === "disable";
  if (name === "iptables") return args.includes("-F") || args.includes("--flush");
  if (name === "systemctl")
    return (
      /^(?:stop|disable|mask)$/.test(args[0] ?? "") &&
      /\b(?:firewalld|ufw|apparmor|auditd|clamav|falcon-sensor|osqueryd)\b/.test(joined)
    );
  if (name === "defaults") return /LSQuarantine/.test(joined) || /com\.apple\.security|GKAutoRearm/.test(joined);
  if (name === "netsh") return /firewall/i.test(joined) && /\b(?:off|disable)\b/i.test(joined);
  if (name === "launchctl")
    return /com\.apple\.(?:XProtect|MRT|security)/i.test(joined) && /unload|disable|bootout/.test(joined);
  return false;
}

function packageInstall(c: Cmd, add: Add, ctx: Ctx): void {
  let name = c.name;
  let args = c.args;
  if (/^python[\d.]*$/.test(name) && args[0] === "-m" && /^pip3?$/.test(args[1] ?? "")) {
    name = "pip";
    args = args.slice(2);
  }
  const spec = PACKAGE_INSTALLERS[name];
  if (!spec) return;
  const sub = spec.sub.find((s) => s === "" || args.slice(0, s.split(" ").length).join(" ") === s);
  if (sub === undefined) return;
  ctx.asks.add("install");
  if (spec.registry === "other") return;
  const rest = sub === "" ? args : args.slice(sub.split(" ").length);
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (/^-(?:r|c|e|i|t|-index-url|-extra-index-url|-target|-prefix|-registry|-constraint|-requirement|p)$/.test(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-") || (/[/\\:]|\.(?:whl|tgz|tar\.gz|zip)$/.test(a) && !a.startsWith("@"))) continue;
    if (sub === "" && i > 0) break; // npx's first word is the package, the rest are its arguments
    const pkg = packageName(a, spec.registry);
    if (!pkg) continue;
    const near = typosquatOf(pkg, spec.registry);
    if (near) add("package.typosquat", c.line, `${pkg} (close to ${near}): ${c.text}`);
  }
}

function packageName(arg: string, registry: "npm" | "pypi"): string | null {
  if (registry === "npm") {
    if (arg.startsWith("@")) return null; // scoped packages belong to their scope's owner
    return arg.split("@")[0]!.toLowerCase() || null;
  }
  const m = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(arg);
  return m ? m[0].toLowerCase().replace(/[._]+/g, "-") : null;
}
