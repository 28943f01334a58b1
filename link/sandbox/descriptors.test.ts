// A Link started with descriptors left open by whoever started it closes them before it runs a
// tool, so that no sandbox inherits them.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const MODULE = new URL("./descriptors.ts", import.meta.url).pathname;
const INHERITED = [100, 150, 200];
const STDIO = Array.from({ length: 201 }, (_, fd) =>
  fd === 1 || fd === 2 || INHERITED.includes(fd) ? "pipe" : "ignore",
);

/**
 * Runs `code` in a Node that inherited pipes as descriptors 100, 150 and 200. (Node itself marks
 * some low inherited descriptors close-on-exec at start, not these.)
 */
function withInherited(code: string): string {
  const run = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `import { closeInheritedDescriptors } from ${JSON.stringify(MODULE)};\n${code}`,
    ],
    { stdio: STDIO, encoding: "utf8", timeout: 30_000 },
  );
  expect(run.stderr).toBe("");
  return run.stdout;
}

describe("closeInheritedDescriptors", () => {
  it("closes what was inherited beyond the standard three, except what it is told to keep", () => {
    const out = withInherited(`
      import { readdirSync, fstatSync } from "node:fs";
      const open = (fd) => { try { fstatSync(fd); return true; } catch { return false; } };
      const inherited = ${JSON.stringify(INHERITED)};
      const before = inherited.filter(open);
      // Whatever else the test runner's own parent left open is closed too; these are the ones to check.
      const closed = closeInheritedDescriptors([150]).filter((fd) => inherited.includes(fd));
      console.log(JSON.stringify({ before, closed, after: inherited.filter(open), std: [0, 1, 2].filter(open) }));
    `);
    expect(JSON.parse(out)).toEqual({ before: INHERITED, closed: [100, 200], after: [150], std: [0, 1, 2] });
  });

  it("leaves the process's own descriptors (close-on-exec) open and working", () => {
    const out = withInherited(`
      import { openSync, readSync, closeSync } from "node:fs";
      const own = openSync(${JSON.stringify(MODULE)}, "r");
      const closed = closeInheritedDescriptors();
      const byte = Buffer.alloc(1);
      console.log(JSON.stringify({ kept: !closed.includes(own), read: readSync(own, byte, 0, 1, 0) }));
      closeSync(own);
      await new Promise((resolve) => setTimeout(resolve, 10));
    `);
    expect(JSON.parse(out)).toEqual({ kept: true, read: 1 });
  });
});
