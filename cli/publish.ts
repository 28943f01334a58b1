// `openvibe publish DIR`: checks the bundle locally with the registry's own contract code, then
// uploads the folder's files as one multipart request and prints the listing URL.
import { readdir, readFile, stat } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { BUNDLE_MANIFEST, loadBundle } from "../lib/contracts";
import type { ContractError } from "../lib/contracts";
import { documentFromSkillMd, isSkillMdFolder } from "../lib/registry/skill-md";

export type PublishOptions = { dir: string; server: string; token: string; dryRun: boolean; version?: string };
export type Out = { line(text: string): void; error(text: string): void };

const SKIP = new Set([".git", "node_modules", ".DS_Store"]);
const MAX_FILES = 256;

export async function publishCommand(o: PublishOptions, out: Out): Promise<number> {
  const dir = path.resolve(o.dir);
  if (!(await stat(dir).catch(() => null))?.isDirectory()) {
    out.error(`${o.dir} is not a folder. Usage: openvibe publish DIR`);
    return 2;
  }
  out.line(`▸ Checking ${path.basename(dir)} with the registry's contract rules…`);
  // An Agent Skills folder (SKILL.md, no skill.json) publishes as a prompt skill: lib/registry/skill-md.
  const skillMd = isSkillMdFolder(new Set(await readdir(dir)));
  if (o.version !== undefined && !skillMd) {
    out.error("--version is for a SKILL.md folder; a skill.json states its own version.");
    return 2;
  }
  const local = skillMd ? documentFromSkillMd(await collect(dir), { version: o.version }) : await loadBundle(dir);
  if (!local.ok) {
    printErrors(local.errors, out);
    return 1;
  }
  const doc = local.document;
  out.line(
    `  ok: ${doc.slug}@${doc.version} (${doc.resources.length} resources, integrity ${doc.integrity.slice(0, 19)}…)`,
  );

  const files = skillMd
    ? await collect(dir)
    : await listedFiles(
        dir,
        doc.resources.map((r) => r.name),
      );
  if (!skillMd) {
    const all = await collect(dir).catch(() => new Map<string, Buffer>());
    const unlisted = [...all.keys()].filter((n) => n !== BUNDLE_MANIFEST && !files.has(n));
    if (unlisted.length)
      out.line(
        `  not in skill.json, so not uploaded: ${unlisted.slice(0, 8).join(", ")}${unlisted.length > 8 ? ", …" : ""}`,
      );
  }
  const bytes = [...files.values()].reduce((n, b) => n + b.length, 0);
  out.line(`▸ Uploading ${files.size} files (${formatBytes(bytes)}) to ${o.server}${o.dryRun ? " (dry run)" : ""}…`);
  const form = new FormData();
  for (const [name, data] of files) form.append("file", new Blob([new Uint8Array(data)]), name);
  // One body, one key: a retry after a lost answer sends exactly the same request, so the
  // registry does it once and answers it again.
  const encoded = new Response(form);
  const request = {
    body: await encoded.arrayBuffer(),
    contentType: encoded.headers.get("content-type") ?? "multipart/form-data",
    key: randomUUID(),
  };
  let res: Response;
  try {
    const query = new URLSearchParams({
      ...(o.dryRun ? { dry_run: "1" } : {}),
      ...(o.version ? { version: o.version } : {}),
    });
    res = await sendWithRetries(
      `${o.server.replace(/\/$/, "")}/api/v1/skills${query.size ? `?${query}` : ""}`,
      o.token,
      request,
      out,
    );
  } catch (err) {
    out.error(`Could not reach ${o.server}: ${(err as Error).message}. Is the server running? Set --server.`);
    return 1;
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || !body) {
    const error = (body?.error ?? {}) as { code?: string; message?: string; details?: unknown };
    out.error(`✗ ${error.code ?? `http.${res.status}`}: ${error.message ?? res.statusText}`);
    if (Array.isArray(error.details)) printErrors(error.details as ContractError[], out);
    if (res.status === 401)
      out.error("  Create a token on the dashboard's Tokens page and pass --token or OPENVIBE_TOKEN.");
    return 1;
  }
  if (body.dry_run) {
    out.line(`✓ ${body.slug}@${body.version} would publish. Nothing was stored.`);
  } else if (body.created) {
    out.line(`✓ Published ${body.slug}@${body.version}; the scan is running (status: ${body.status}).`);
  } else {
    out.line(
      `✓ ${body.slug}@${body.version} was already published with exactly this content (status: ${body.status}).`,
    );
  }
  out.line(`  ${body.url}`);
  return 0;
}

const RETRIES = 4;

/** Network errors, 5xx, 429 and a first attempt still in flight are tried again with the same key. */
async function sendWithRetries(
  url: string,
  token: string,
  request: { body: ArrayBuffer; contentType: string; key: string },
  out: Out,
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    let res: Response | null = null;
    let failure: unknown = null;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": request.contentType,
          "idempotency-key": request.key,
        },
        body: request.body,
      });
    } catch (err) {
      failure = err;
    }
    const again = res === null || res.status >= 500 || res.status === 429 || res.headers.get("retry-after") !== null;
    if (!again || attempt >= RETRIES) {
      if (res) return res;
      throw failure;
    }
    const wait = Math.min(8, Number(res?.headers.get("retry-after")) || 2 ** (attempt - 1)) * 1000;
    out.line(
      `  ${res ? `the registry answered ${res.status}` : "no answer"}; trying again in ${wait / 1000} s (same request, same key)…`,
    );
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** skill.json and every resource it lists, whatever its folder (node_modules/ and dot-files too). */
async function listedFiles(dir: string, names: string[]): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>([[BUNDLE_MANIFEST, await readFile(path.join(dir, BUNDLE_MANIFEST))]]);
  for (const name of names) files.set(name, await readFile(path.join(dir, name)));
  return files;
}

async function collect(dir: string, rel = "", files = new Map<string, Buffer>()): Promise<Map<string, Buffer>> {
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith(".")) continue;
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isSymbolicLink()) throw new Error(`${p} is a symlink; bundles hold only regular files.`);
    if (e.isDirectory()) await collect(dir, p, files);
    else if (e.isFile()) {
      if (files.size >= MAX_FILES) throw new Error(`The folder has more than ${MAX_FILES} files.`);
      files.set(p, await readFile(path.join(dir, p)));
    }
  }
  return files;
}

function printErrors(errors: ContractError[], out: Out) {
  out.error(`✗ The bundle has ${errors.length} problem${errors.length === 1 ? "" : "s"}:`);
  for (const e of errors) out.error(`  ${(e.path || "/").padEnd(24)} ${e.code}: ${e.message}`);
}

function formatBytes(n: number) {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`;
}
