// What a backup archive holds, described by manifest.json (machine-readable, validated on
// restore) and SHA256SUMS (the same sums in `sha256sum -c` form for a person with coreutils).
// Archive layout: manifest.json, SHA256SUMS, database.dump (pg_dump custom format), then
// media/<content key> for every Media object the database references.
import { z } from "zod";
import { contentKey } from "../media/store";

export const BACKUP_FORMAT = "openvibe-backup@1";
export const MANIFEST_FILE = "manifest.json";
export const SUMS_FILE = "SHA256SUMS";
export const DATABASE_FILE = "database.dump";
/** Largest manifest or sums file a restore reads (a backup of ~500 000 Media objects). */
export const MAX_INDEX_BYTES = 64 * 1024 * 1024;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase sha256");
const MEDIA_PATH = /^media\/sha256\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.iso.datetime(),
  database: z.object({
    file: z.literal(DATABASE_FILE),
    format: z.literal("pg_dump-custom"),
    serverVersion: z.string().max(100),
    pgDumpVersion: z.string().max(100),
    pgDumpMajor: z.number().int().min(9).max(1000),
    migrations: z.array(z.string().max(200)).max(10_000),
    /** Row count of every table in the dumped snapshot, checked again after a restore. */
    tables: z.record(z.string().max(200), z.number().int().min(0)),
  }),
  media: z.object({
    backend: z.enum(["local", "vercel-blob"]),
    objects: z
      .array(z.object({ sha256, sizeBytes: z.number().int().min(0), mediaType: z.string().min(1).max(200) }))
      .max(5_000_000),
  }),
  /** Every file after the manifest, with its sha256 and size. */
  files: z.array(z.object({ path: z.string().max(200), sha256, size: z.number().int().min(0) })).max(5_000_001),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = Manifest["files"][number];

export const mediaPath = (sha: string) => `media/${contentKey(sha)}`;

/** The sha256 a media path names, or null when the path is not a media path. */
export function mediaPathDigest(p: string): string | null {
  const m = MEDIA_PATH.exec(p);
  if (!m || m[3]!.slice(0, 2) !== m[1] || m[3]!.slice(2, 4) !== m[2]) return null;
  return m[3]!;
}

/** `<sha256>  <path>` lines, the format `sha256sum -c` reads. */
export function formatSums(files: Array<{ path: string; sha256: string }>): string {
  return files.map((f) => `${f.sha256}  ${f.path}\n`).join("");
}

export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const [i, line] of text.split("\n").entries()) {
    if (!line) continue;
    const m = /^([0-9a-f]{64}) [ *](\S{1,200})$/.exec(line);
    if (!m) throw new Error(`${SUMS_FILE} line ${i + 1} is not "<sha256>  <path>"`);
    if (sums.has(m[2]!)) throw new Error(`${SUMS_FILE} lists ${m[2]} twice`);
    sums.set(m[2]!, m[1]!);
  }
  return sums;
}

/**
 * Checks that the manifest is one whole: its files are exactly database.dump and one media file
 * per Media object (named by its sha256, of its size), and SHA256SUMS says the same, manifest.json
 * included. Returns the problems, none when it is whole.
 */
export function manifestProblems(manifest: Manifest, sums: Map<string, string>, manifestSha256: string): string[] {
  const problems: string[] = [];
  const files = new Map<string, ManifestFile>();
  for (const f of manifest.files) {
    if (files.has(f.path)) problems.push(`the manifest lists ${f.path} twice`);
    files.set(f.path, f);
  }
  if (!files.has(DATABASE_FILE)) problems.push(`the manifest does not list ${DATABASE_FILE}`);
  const objects = new Map<string, Manifest["media"]["objects"][number]>();
  for (const o of manifest.media.objects) {
    if (objects.has(o.sha256)) problems.push(`the manifest lists Media object ${o.sha256} twice`);
    objects.set(o.sha256, o);
  }
  for (const f of files.values()) {
    if (f.path === DATABASE_FILE) continue;
    const digest = mediaPathDigest(f.path);
    const object = digest ? objects.get(digest) : undefined;
    if (!digest) problems.push(`the manifest lists an unexpected file ${JSON.stringify(f.path)}`);
    else if (digest !== f.sha256) problems.push(`${f.path} is listed with another sha256 than its name`);
    else if (!object) problems.push(`${f.path} is not one of the manifest's Media objects`);
    else if (object.sizeBytes !== f.size) problems.push(`${f.path} has another size than its Media object`);
  }
  for (const sha of objects.keys()) {
    if (!files.has(mediaPath(sha))) problems.push(`Media object ${sha} has no file in the manifest`);
  }
  if (sums.get(MANIFEST_FILE) !== manifestSha256) problems.push(`${SUMS_FILE} does not match ${MANIFEST_FILE}`);
  for (const [p, s] of sums) {
    if (p !== MANIFEST_FILE && files.get(p)?.sha256 !== s)
      problems.push(`${SUMS_FILE} and the manifest disagree about ${p}`);
  }
  for (const p of files.keys()) if (!sums.has(p)) problems.push(`${SUMS_FILE} does not list ${p}`);
  return problems;
}
