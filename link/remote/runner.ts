// `openvibe-link run`: the poll loop. The machine's own switch (link.json, `skills on|off`) is the
// authority: it is read again before every claim, a poll in flight is cut short when the owner
// turns the runner off, a job handed over meanwhile is given back unrun, and nothing here ever
// turns the runner on. The dashboard can only turn it off: the Link obeys at its next answer.
// Jobs run side by side up to the Link's slots (./slots.ts): a poll asks for the free ones, and
// each job handed over runs in its own sandbox while the loop polls again. A job's result carries
// the poll for the slot it frees (`next`), so a Link kept busy makes one request a job, not two.
// A heartbeat every few seconds (every second while it holds a job) renews its jobs' leases and
// brings back what the server withdrew, which is killed at once.
import { unwatchFile, watchFile } from "node:fs";
import {
  heartbeatResponseSchema,
  jobSchema,
  LIMIT_CAPS,
  pollResponseSchema,
  releaseResponseSchema,
  type CancelNotice,
  type HandedJob,
  type LinkReport,
  type PollResponse,
} from "../../lib/protocol";
import { LinkError } from "../errors";
import type { Sandbox } from "../sandbox/run";
import { ServerError, Unreachable, type LinkClient } from "./client";
import { readState, statePath, updateState, type LinkState } from "./config";
import type { LinkIdentity } from "./attest";
import { refuseJob, runClaimedJob, Withdrawal, type JobContext } from "./job-runner";
import { LogCheck } from "./log-check";
import { ResultOutbox, sleep, type Fold } from "./results";
import { Slots } from "./slots";

type Out = { line(text: string): void; error(text: string): void };

const POLL_WAIT_MS = 20_000;
/**
 * A poll whose free memory could leave out a job (below the largest cap a job may declare) comes
 * back this soon, to ask again with what the jobs that ended meanwhile freed.
 */
const POLL_WAIT_TIGHT_MS = 1_000;
const HEARTBEAT_IDLE_MS = 10_000;
/** While a job is held: how soon a withdrawal reaches the running tool. */
const HEARTBEAT_BUSY_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/** On stop, how long held results are still pushed before they wait on disk for the next start. */
const STOP_DELIVERY_MS = 10_000;
/**
 * The loop polls again once the jobs it just launched run in their sandboxes, or after this long:
 * signing and sending that poll would otherwise take the CPU from their start.
 */
const POLL_AFTER_LAUNCH_MAX_MS = 50;

/** Why a job waiting for a slot was not started: the Link is stopping. */
class Stopping extends Error {}

/** The jobs of a poll answer, whichever form it took. */
function handedJobs(answer: PollResponse): HandedJob[] {
  if (answer.jobs) return answer.jobs;
  return answer.job ? [{ job: answer.job, started: answer.started, inputs: answer.inputs }] : [];
}

/** The memory a job declared, for its slot; a job that does not read as one is refused before it runs. */
function declaredMemory(job: { id: string }): number {
  const parsed = jobSchema.safeParse(job);
  return parsed.success ? parsed.data.limits.mem_bytes : 0;
}

export class LinkRunner {
  private readonly held = new Map<string, AbortController>();
  /** Jobs handed over that wait for a slot (their leases are renewed like running ones'). */
  private readonly waiting = new Map<string, AbortController>();
  private readonly tasks = new Set<Promise<void>>();
  private readonly revoked = new Set<string>();
  private readonly outbox: ResultOutbox;
  private readonly logCheck: JobContext["logCheck"];
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Aborted a while after `signal`: results stop being retried then (they stay on disk). */
  private readonly deliveryDeadline = new AbortController();

  constructor(
    private readonly home: string,
    private readonly client: LinkClient,
    private readonly sandbox: Sandbox,
    private readonly out: Out,
    private readonly signal: AbortSignal,
    private readonly identity: LinkIdentity,
    logCheck?: JobContext["logCheck"],
    private readonly slots = new Slots(1, Number.MAX_SAFE_INTEGER),
  ) {
    this.outbox = new ResultOutbox(home, client, out);
    this.logCheck = logCheck ?? LogCheck.forHome(readState(home).server, home);
    signal.addEventListener("abort", () => setTimeout(() => this.deliveryDeadline.abort(), STOP_DELIVERY_MS).unref(), {
      once: true,
    });
  }

  private report(state: LinkState): LinkReport {
    return { runner: state.runner, runner_epoch: state.runner_epoch, pool: state.pool };
  }

  /** A poll or heartbeat answer: revocations, withdrawals, and the dashboard's "off". */
  private obey(answer: { runner: "on" | "off"; cancel: CancelNotice[]; revoked: string[] }, sentEpoch: number) {
    for (const integrity of answer.revoked) this.revoked.add(integrity);
    for (const notice of answer.cancel) {
      this.held.get(notice.id)?.abort(new Withdrawal(notice));
      this.waiting.get(notice.id)?.abort(new Withdrawal(notice));
    }
    if (answer.runner === "off") {
      // Only about the switch as it was when this report left: a newer `skills on` is the owner's.
      const before = readState(this.home);
      if (before.runner === "on" && before.runner_epoch === sentEpoch) {
        updateState(this.home, (s) => (s.runner_epoch === sentEpoch ? { ...s, runner: "off" } : s));
        this.out.line(
          "! The skill runner was turned off from the dashboard. Turn it on again here: openvibe-link skills on",
        );
      }
    }
  }

  private scheduleHeartbeat(ms: number) {
    clearTimeout(this.heartbeatTimer);
    if (this.stopped) return;
    this.heartbeatTimer = setTimeout(() => void this.beat(), ms);
  }

  private async beat() {
    try {
      const state = readState(this.home);
      const running = [...new Set([...this.held.keys(), ...this.waiting.keys(), ...this.outbox.pending()])].slice(
        0,
        32,
      );
      const answer = await this.client.json(heartbeatResponseSchema, "POST", "/api/link/v1/heartbeat", {
        ...this.report(state),
        running,
      });
      this.obey(answer, state.runner_epoch);
    } catch (err) {
      if (err instanceof ServerError && (err.code === "link.revoked" || err.code === "link.unknown")) {
        for (const controller of this.held.values())
          controller.abort(new Withdrawal({ code: "run.job.cancelled", message: err.message }));
      }
      // Otherwise the next beat tries again; a lease outlives several missed beats.
    }
    const busy = this.held.size || this.waiting.size || this.outbox.pending().length;
    this.scheduleHeartbeat(busy ? HEARTBEAT_BUSY_MS : HEARTBEAT_IDLE_MS);
  }

  private context(): JobContext {
    return {
      client: this.client,
      identity: this.identity,
      logCheck: this.logCheck,
      sandbox: this.sandbox,
      outbox: this.outbox,
      out: this.out,
      revoked: this.revoked,
      hold: (jobId, controller) => {
        this.held.set(jobId, controller);
        this.scheduleHeartbeat(HEARTBEAT_BUSY_MS);
      },
      release: (jobId) => void this.held.delete(jobId),
      nextPoll: (memBytes) => this.nextPoll(memBytes),
    };
  }

  /**
   * The poll folded into a job's result: one job for the slot that job frees, within the memory
   * it held; none once the Link stops or its runner is off. The main loop asks for the other slots.
   */
  private nextPoll(memBytes: number): Fold | null {
    if (this.signal.aborted || this.stopped) return null;
    let state: LinkState;
    try {
      state = readState(this.home);
    } catch {
      return null; // the result goes alone; the loop's next poll says what is wrong
    }
    if (state.runner === "off") return null;
    return {
      ask: { ...this.report(state), inline: true, max: 1, mem_free_bytes: memBytes },
      handOver: (answer) => this.handOver(answer, state.runner_epoch),
    };
  }

  /**
   * What a poll's answer (or a result's `next`) says: its directives obeyed, its jobs launched (the
   * promises resolve once each runs), or handed back unrun when the runner went off meanwhile.
   */
  private async handOver(answer: PollResponse, sentEpoch: number): Promise<Promise<void>[]> {
    this.obey(answer, sentEpoch);
    const jobs = handedJobs(answer);
    if (!jobs.length) return [];
    if (this.signal.aborted || readState(this.home).runner === "off") {
      await this.handBack(jobs);
      return [];
    }
    return jobs.map((handed) => this.launch(handed));
  }

  /** One long poll, cut short when the owner turns the runner off meanwhile. */
  private async poll(state: LinkState) {
    const cut = new AbortController();
    const onStop = () => cut.abort();
    this.signal.addEventListener("abort", onStop, { once: true });
    const file = statePath(this.home);
    const onChange = () => {
      try {
        if (readState(this.home).runner === "off") cut.abort();
      } catch {
        cut.abort();
      }
    };
    watchFile(file, { interval: 200 }, onChange);
    try {
      const tight = this.slots.memoryFree < LIMIT_CAPS.mem_bytes;
      const ask = {
        ...this.report(state),
        wait_ms: tight ? POLL_WAIT_TIGHT_MS : POLL_WAIT_MS,
        inline: true,
        max: Math.max(1, this.slots.free),
        mem_free_bytes: this.slots.memoryFree,
      };
      return await this.client.json(pollResponseSchema, "POST", "/api/link/v1/poll", ask, cut.signal);
    } catch (err) {
      if (cut.signal.aborted) return null;
      throw err;
    } finally {
      unwatchFile(file, onChange);
      this.signal.removeEventListener("abort", onStop);
    }
  }

  /**
   * Runs a handed job once its slot and memory are free (oldest first), in the background: the
   * poll loop goes on meanwhile. A job withdrawn while it waits is dropped unrun. Resolves once the
   * tool runs, or the job ended without running.
   */
  private launch(handed: HandedJob): Promise<void> {
    const id = handed.job.id;
    // Handed over twice (a result's answer given again): the job runs once, as first handed.
    if (this.held.has(id) || this.waiting.has(id)) return Promise.resolve();
    let running!: () => void;
    const launched = new Promise<void>((resolve) => (running = resolve));
    const memBytes = declaredMemory(handed.job);
    const waiting = new AbortController();
    this.waiting.set(id, waiting);
    const task = (async () => {
      let release: (() => void) | undefined;
      try {
        release = await this.slots.acquire(memBytes, waiting.signal);
      } catch (err) {
        this.waiting.delete(id);
        if (err instanceof LinkError)
          return refuseJob(this.context(), handed.job, err.code, err.message, this.deliveryDeadline.signal);
        if (err instanceof Stopping) {
          this.out.line(`▸ ${id}: not started, the Link is stopping; handed back.`);
          return this.handBack([handed]);
        }
        const notice = err instanceof Withdrawal ? err.notice : { code: "run.job.cancelled", message: "" };
        this.out.error(`✗ ${id}: withdrawn while it waited for a slot (${notice.code}). ${notice.message}`.trimEnd());
        return;
      }
      this.waiting.delete(id);
      try {
        await runClaimedJob(this.context(), handed.job, this.deliveryDeadline.signal, handed, running);
      } finally {
        release();
      }
    })()
      .catch((err: unknown) => this.out.error(`! ${id}: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        running();
        this.tasks.delete(task);
      });
    this.tasks.add(task);
    return launched;
  }

  /** Jobs handed over as the runner went off (or the Link stops): none of them runs. */
  private async handBack(jobs: HandedJob[]): Promise<void> {
    for (const { job, started } of jobs) {
      // One the poll already started stays the server's until its lease runs out, as a silent Link's would.
      if (started) continue;
      await this.client
        .json(releaseResponseSchema, "POST", `/api/link/v1/jobs/${job.id}/release`)
        .catch(() => undefined);
    }
  }

  async run(): Promise<number> {
    this.scheduleHeartbeat(0);
    let backoff = 1_000;
    try {
      await this.outbox.resendAll(this.deliveryDeadline.signal);
      while (!this.signal.aborted) {
        // The owner's switch, as it is on disk now: never a copy from an earlier claim.
        const state = readState(this.home);
        if (state.runner === "off") {
          await sleep(1_000, this.signal);
          continue;
        }
        try {
          await this.slots.untilFree(this.signal);
          if (this.signal.aborted) break;
          // A job that came with a result may have taken the slot that just freed.
          if (!this.slots.free) continue;
          const answer = await this.poll(state);
          backoff = 1_000;
          if (!answer) continue;
          const launched = await this.handOver(answer, state.runner_epoch);
          if (!launched.length) continue;
          await Promise.race([Promise.all(launched), sleep(POLL_AFTER_LAUNCH_MAX_MS, this.signal)]);
        } catch (err) {
          if (this.signal.aborted) break;
          if (err instanceof ServerError && (err.code === "link.revoked" || err.code === "link.unknown")) {
            this.out.error(`✗ ${err.code}: ${err.message}`);
            return 1;
          }
          const what =
            err instanceof Unreachable
              ? err.message
              : err instanceof ServerError
                ? `${err.status} ${err.code}: ${err.message}`
                : String(err);
          this.out.error(`! ${what}; retrying in ${Math.round(backoff / 1000)} s.`);
          await sleep(backoff, this.signal);
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        }
      }
      // The jobs already running finish (their results are delivered or kept on disk); those still
      // waiting for a slot are not started.
      for (const waiting of this.waiting.values()) waiting.abort(new Stopping());
      while (this.tasks.size) await Promise.allSettled([...this.tasks]);
      this.out.line("▸ Stopped cleanly.");
      return 0;
    } finally {
      this.stopped = true;
      clearTimeout(this.heartbeatTimer);
    }
  }
}
