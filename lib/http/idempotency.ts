// Idempotent public writes (POST /api/v1/steps, publish, top-ups): a request with an
// `Idempotency-Key` (1–255 printable ASCII characters) is done once per principal. The same key with
// the same request within 24 h gets the first answer again, status and body; with another request,
// 409 `idempotency.mismatch`; while the first is still in flight, 409 `idempotency.in_progress` with
// Retry-After. Kept in PostgreSQL. An answer of 5xx is not kept (nothing was done: try again).
import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "../contracts/canonical-json";
import { db } from "../db";
import { AppError, errorBody } from "../errors";
import { log } from "../log";

export const IDEMPOTENCY_HEADER = "idempotency-key";
/** How long a key and its first answer are kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** A first request still marked in flight this long after it began is taken to have died. */
const ABANDONED_AFTER_MS = 2 * 60_000;
/** Answers larger than this are not kept (no route here answers that much). */
const MAX_KEPT_BODY_CHARS = 256 * 1024;
const KEY = /^[\x20-\x7e]{1,255}$/;
/** Larger than any upload a route here takes (bundles are at most a few MiB). */
const MAX_HASHED_BODY_BYTES = 16 * 1024 * 1024;

/** Whose key it is: an agent's calls and a person's are apart, whatever the key says. */
const scopeSchema = z.union([
  z.object({ agentId: z.string().min(1) }).transform((p) => `agent:${p.agentId}`),
  z.object({ userId: z.string().min(1) }).transform((p) => `user:${p.userId}`),
]);

export function idempotencyKeyOf(req: Request): string | null {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!KEY.test(key)) {
    throw new AppError("idempotency.key_invalid", "An Idempotency-Key is 1 to 255 printable ASCII characters.");
  }
  return key;
}

/**
 * What makes two requests "the same": method, path and query, and the body (JSON compared by its
 * canonical form, so key order does not matter; any other body byte for byte).
 */
export async function requestFingerprint(req: Request, rawBody: string | null): Promise<string> {
  const url = new URL(req.url);
  const hash = createHash("sha256").update(`${req.method} ${url.pathname}${url.search}\n`);
  if (rawBody !== null) {
    let canonical: string | null = null;
    try {
      canonical = canonicalJson(JSON.parse(rawBody));
    } catch {
      canonical = null;
    }
    hash.update(canonical ?? rawBody);
  } else if (req.body) {
    // A body the route reads itself (an upload), read from a copy of the stream.
    const contentType = req.headers.get("content-type") ?? "";
    const bytes = await readBounded(req.clone().body!);
    hash.update(contentType.split(";")[0]!.trim().toLowerCase()).update("\n");
    const parts = /^multipart\/form-data\s*;/i.test(contentType) ? await formParts(contentType, bytes) : null;
    if (parts) for (const part of parts) hash.update(part);
    else hash.update(contentType).update("\n").update(bytes);
  }
  return hash.digest("hex");
}

async function readBounded(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_HASHED_BODY_BYTES) {
      await reader.cancel();
      throw new AppError("request.too_large", `The request body is over ${MAX_HASHED_BODY_BYTES} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * A form upload is the same request whatever boundary the client picked this time: each part in
 * order, by name, file name, type and content. Null when the body is not a form (hashed as sent).
 */
async function formParts(contentType: string, bytes: Buffer): Promise<Buffer[] | null> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
  } catch {
    return null;
  }
  const parts: Buffer[] = [];
  for (const [name, value] of form.entries()) {
    const content = typeof value === "string" ? Buffer.from(value) : Buffer.from(await value.arrayBuffer());
    const head = typeof value === "string" ? [name] : [name, value.name, value.type];
    parts.push(Buffer.from(`${JSON.stringify(head)} ${content.byteLength}\n`), content);
  }
  return parts;
}

type Row = {
  id: string;
  requestHash: string;
  status: number | null;
  contentType: string | null;
  body: string | null;
  createdAt: Date;
  expiresAt: Date;
};

async function claim(
  scope: string,
  key: string,
  requestHash: string,
  now: Date,
): Promise<{ mine: true; id: string } | { mine: false; row: Row }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO "IdempotencyKey" (id, scope, key, "requestHash", "createdAt", "expiresAt")
      VALUES (${`idk_${randomUUID()}`}, ${scope}, ${key}, ${requestHash}, ${now}, ${new Date(now.getTime() + IDEMPOTENCY_TTL_MS)})
      ON CONFLICT (scope, key) DO NOTHING
      RETURNING id`;
    if (inserted[0]) return { mine: true, id: inserted[0].id };
    const row = await db.idempotencyKey.findUnique({ where: { scope_key: { scope, key } } });
    if (!row) continue;
    const abandoned =
      row.status === null && (releasing.has(row.id) || now.getTime() - row.createdAt.getTime() > ABANDONED_AFTER_MS);
    if (row.expiresAt > now && !abandoned) return { mine: false, row };
    // Expired, or its first request died without an answer: the key starts over.
    await db.idempotencyKey.deleteMany({ where: { id: row.id, createdAt: row.createdAt } });
  }
  return {
    mine: false,
    row: { id: "", requestHash, status: null, contentType: null, body: null, createdAt: now, expiresAt: now },
  };
}

function inProgress(): Response {
  const err = new AppError(
    "idempotency.in_progress",
    "The first request with this Idempotency-Key is still being handled: try again in a moment.",
  );
  return new Response(JSON.stringify(errorBody(err)), {
    status: err.status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "retry-after": "1" },
  });
}

function replay(row: Row, requestHash: string): Response {
  if (row.requestHash !== requestHash) {
    throw new AppError(
      "idempotency.mismatch",
      "This Idempotency-Key was used for a different request. Use a new key for a new request.",
    );
  }
  if (row.status === null) return inProgress();
  return new Response(row.body, {
    status: row.status,
    headers: {
      "content-type": row.contentType ?? "application/json; charset=utf-8",
      "cache-control": "no-store",
      "idempotent-replayed": "true",
    },
  });
}

/** Claims this process gave up but could not yet delete: a retry here takes them over at once. */
const releasing = new Set<string>();

/** How long a claim whose release failed (the database was away) keeps being released in the background. */
const RELEASE_RETRY_MS = 60_000;

/**
 * Frees a claim whose request did nothing to keep. When the database that just failed the request
 * also refuses the release, it is retried in the background as the database comes back, so a retry
 * with the same key runs within seconds instead of waiting out ABANDONED_AFTER_MS.
 */
async function release(id: string): Promise<void> {
  const attempt = () =>
    db.idempotencyKey.deleteMany({ where: { id, status: null } }).then(
      () => releasing.delete(id) || true,
      () => false,
    );
  if (await attempt()) return;
  releasing.add(id);
  const giveUpAt = Date.now() + RELEASE_RETRY_MS;
  const retry = (delay: number) => {
    setTimeout(() => {
      void attempt().then((done) => {
        if (done) return;
        if (Date.now() < giveUpAt) return retry(Math.min(delay * 2, 5_000));
        releasing.delete(id);
        log.warn("idempotency.release_failed", { id });
      });
    }, delay).unref();
  };
  retry(250);
}

/**
 * Runs `handle` once for (principal, key): the first time it runs and its answer is kept; after
 * that the kept answer is replayed. Requests without the header are handled as they are.
 */
export async function idempotent(
  req: Request,
  principal: unknown,
  rawBody: string | null,
  handle: (key: string | null) => Promise<Response>,
): Promise<Response> {
  const key = idempotencyKeyOf(req);
  if (key === null) return handle(null);
  const scope = scopeSchema.safeParse(principal);
  if (!scope.success) return handle(null);
  const requestHash = await requestFingerprint(req, rawBody);
  const claimed = await claim(scope.data, key, requestHash, new Date());
  if (!claimed.mine) return replay(claimed.row, requestHash);
  let response: Response;
  try {
    response = await handle(key);
  } catch (err) {
    // Nothing to replay: the next try with this key runs again (and finds anything it stored).
    await release(claimed.id);
    throw err;
  }
  const body = await response.text();
  if (response.status >= 500 || body.length > MAX_KEPT_BODY_CHARS) {
    await release(claimed.id);
  } else {
    await db.idempotencyKey
      .update({
        where: { id: claimed.id },
        data: {
          status: response.status,
          contentType: response.headers.get("content-type"),
          body,
          completedAt: new Date(),
        },
      })
      .catch((err: unknown) => {
        // The work is done and is answered. A retry then runs it again, which the routes that take
        // a key make harmless (the same step, the same payment, the same version).
        log.warn("idempotency.keep_failed", { err });
      });
  }
  return new Response(body, { status: response.status, headers: response.headers });
}

/** The dispatch sweep drops keys past their 24 h. */
export async function purgeExpiredIdempotencyKeys(now = new Date()): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "IdempotencyKey" WHERE id IN (
      SELECT id FROM "IdempotencyKey" WHERE "expiresAt" < ${now} ORDER BY "expiresAt" LIMIT 1000)`;
}
