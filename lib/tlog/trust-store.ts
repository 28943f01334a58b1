// What a log client (`openvibe verify`, the Link) remembers per registry: the log key it trusts
// (pinned at first use, or the one OpenVibe publishes in known-logs.ts) and the last checkpoint it
// accepted, so the next check can prove the log only grew. One JSON file, `<dir>/logs.json`,
// written atomically. Pure: no server code.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { serverId } from "./known-logs";

const fileSchema = z.object({
  version: z.literal(1),
  logs: z.record(
    z.string(),
    z.object({ vkey: z.string().max(512), checkpoint: z.string().max(16_384).nullable(), saved_at: z.string() }),
  ),
});
type TrustFile = z.infer<typeof fileSchema>;

export class TrustStore {
  readonly file: string;
  private constructor(
    dir: string,
    private data: TrustFile,
  ) {
    this.file = path.join(dir, "logs.json");
  }

  static async open(dir: string): Promise<TrustStore> {
    const file = path.join(dir, "logs.json");
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return new TrustStore(dir, { version: 1, logs: {} });
      throw err;
    }
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${file} is not a file openvibe wrote; move it away to start over.`);
    return new TrustStore(dir, parsed.data);
  }

  entry(server: string) {
    return this.data.logs[serverId(server)] ?? null;
  }

  async save(server: string, vkey: string, checkpoint: string | null): Promise<void> {
    this.data.logs[serverId(server)] = { vkey, checkpoint, saved_at: new Date().toISOString() };
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(this.data, null, 2) + "\n", { mode: 0o600 });
    await rename(tmp, this.file);
  }
}
