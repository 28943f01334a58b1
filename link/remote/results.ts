// A result always arrives: the Link writes each job's result into its state folder before it
// posts it, and keeps posting (network error, 5xx, 429: backoff, then again) until the server
// answers 2xx or says the job is gone for this Link. Whatever is still in the folder after a
// restart is sent again first. The server records a result once, however often it arrives.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  jobIdSchema,
  resultRequestSchema,
  resultResponseSchema,
  type NextPoll,
  type PollResponse,
  type ResultRequest,
  type ResultResponse,
} from "../../lib/protocol";
import { ServerError, Unreachable, type LinkClient } from "./client";
import { resultsDir, writeAtomic } from "./config";

const heldResultSchema = z.strictObject({ job_id: jobIdSchema, result: resultRequestSchema });

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

export type Delivery = "delivered" | "gone" | "kept";
/** A poll folded into a result (the protocol's `next`) and what becomes of the jobs its answer hands over. */
export type Fold = { ask: NextPoll; handOver(answer: PollResponse): Promise<unknown> };
type Out = { line(text: string): void; error(text: string): void };

export class ResultOutbox {
  private readonly dir: string;

  constructor(
    home: string,
    private readonly client: LinkClient,
    private readonly out: Out,
  ) {
    this.dir = resultsDir(home);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  private file(jobId: string) {
    return path.join(this.dir, `${jobIdSchema.parse(jobId)}.json`);
  }

  /** On disk before anything is sent: a crash or a restart loses nothing. */
  keep(jobId: string, result: ResultRequest): void {
    writeAtomic(this.file(jobId), `${JSON.stringify({ job_id: jobId, result })}\n`);
  }

  /** Job ids whose results are still waiting for the server's acknowledgement. */
  pending(): string[] {
    return readdirSync(this.dir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => name.slice(0, -".json".length))
      .filter((id) => jobIdSchema.safeParse(id).success);
  }

  private read(jobId: string): ResultRequest | null {
    const file = this.file(jobId);
    if (!existsSync(file)) return null;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      raw = null;
    }
    const parsed = heldResultSchema.safeParse(raw);
    if (!parsed.success || parsed.data.job_id !== jobId) {
      this.out.error(`! ${file} is not a result this Link wrote; it is removed.`);
      rmSync(file, { force: true });
      return null;
    }
    return parsed.data.result;
  }

  /**
   * Posts one held result until the server takes it or says the job is gone. With `until` aborted
   * it stops retrying and keeps the result on disk for the next start. `kept` is the result just
   * kept, so that it need not be read back; `fold`, the poll sent along with it (never kept on disk).
   */
  async deliver(jobId: string, until?: AbortSignal, kept?: ResultRequest, fold?: Fold): Promise<Delivery> {
    const result = kept ?? this.read(jobId);
    if (!result) return "gone";
    // Cleared when the server refuses `next`: the result then goes alone.
    let asking = fold;
    let backoff = FIRST_BACKOFF_MS;
    for (;;) {
      let answer: ResultResponse;
      try {
        const body = asking ? { ...result, next: asking.ask } : result;
        answer = await this.client.json(resultResponseSchema, "POST", `/api/link/v1/jobs/${jobId}/result`, body);
      } catch (err) {
        if (err instanceof ServerError && err.jobGone) {
          rmSync(this.file(jobId), { force: true });
          this.out.error(`  ${jobId}: the server no longer takes this result (${err.code}).`);
          return "gone";
        }
        if (asking && err instanceof ServerError && err.status === 422) {
          // A server that does not read `next` (an older one): the result goes alone, at once.
          asking = undefined;
          continue;
        }
        const retry = err instanceof Unreachable || (err instanceof ServerError && err.retryable);
        if (!retry) {
          this.out.error(
            `! ${jobId}: the result was refused (${err instanceof ServerError ? err.code : String(err)}); kept to send again after a restart.`,
          );
          return "kept";
        }
        if (until?.aborted) return "kept";
        const wait = err instanceof ServerError && err.retryAfterS ? err.retryAfterS * 1000 : backoff;
        this.out.error(
          `! ${jobId}: sending the result failed (${err instanceof ServerError ? `${err.status} ${err.code}` : err.message}); again in ${(wait / 1000).toFixed(1)} s.`,
        );
        await sleep(Math.min(wait, MAX_BACKOFF_MS), until);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        continue;
      }
      rmSync(this.file(jobId), { force: true });
      if (answer.late) this.out.line(`  ${jobId}: the result arrived after the run expired; recorded as late.`);
      if (answer.next && asking) {
        await asking.handOver(answer.next).catch((err: unknown) => {
          this.out.error(
            `! ${jobId}: the jobs that came with its result were not taken: ${err instanceof Error ? err.message : String(err)}`,
          );
        });
      }
      return "delivered";
    }
  }

  /** Sends again every result a previous run of this Link left unacknowledged. */
  async resendAll(until?: AbortSignal): Promise<void> {
    for (const jobId of this.pending()) {
      if (until?.aborted) return;
      this.out.line(`▸ Sending the held result of ${jobId} again.`);
      await this.deliver(jobId, until);
    }
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
