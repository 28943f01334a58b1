// `openvibe-link exec` runs one job: its Sandbox (`single`) makes no standby for a next one, while a
// Link's Sandbox keeps one ready after every job.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { statFields } from "./priority";
import { Sandbox } from "./run";

/** This process's children that are a waiting standby shell (`/bin/sh -c …` before its exec). */
function standbys(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const ppid = Number(statFields(stat)[1]);
        return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("/bin/sh\0-c\0");
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** `source` as tool.js in a new job folder, run with `wall_ms`; the folder is removed after. */
async function runTool(sandbox: Sandbox, source: string, wallMs = 10_000) {
  const folder = sandbox.newJobFolder();
  try {
    writeFileSync(path.join(folder.files, "tool.js"), source);
    return await sandbox.run({
      folder,
      entry: "tool.js",
      input: Buffer.from("{}"),
      net: "deny",
      limits: { wall_ms: wallMs, mem_bytes: 134_217_728 },
    });
  } finally {
    sandbox.removeJobFolder(folder);
  }
}

async function oneJob(sandbox: Sandbox): Promise<void> {
  const result = await runTool(sandbox, 'process.stdout.write(JSON.stringify({ ok: true }));');
  expect(result.status).toBe("ok");
  await sandbox.idle();
}

describe("a Sandbox's standby after a job", () => {
  it("is made again for a Link, and not for a single job", async () => {
    const link = await Sandbox.create();
    try {
      await oneJob(link);
      expect(standbys()).toHaveLength(1);
    } finally {
      await link.close();
    }
    expect(standbys()).toHaveLength(0);

    const single = await Sandbox.create({ single: true });
    try {
      await oneJob(single);
      expect(standbys()).toHaveLength(0);
    } finally {
      await single.close();
    }
  });
});

describe("the end of a job", () => {
  it("gives a tool that closes stdout without a complete value a short grace, not its whole wall clock", async () => {
    const single = await Sandbox.create({ single: true });
    try {
      const source = 'process.stdout.write("{\\"half\\":"); process.stdout.end(); setInterval(() => {}, 1000);';
      const result = await runTool(single, source, 60_000);
      expect(result.status).not.toBe("timeout");
      expect(result.status).not.toBe("ok");
      expect(result.exit).toBeNull();
    } finally {
      await single.close();
    }
  });
});
