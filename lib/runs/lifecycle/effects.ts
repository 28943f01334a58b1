// What a committed transition sets in motion: wake-ups for whoever waits on it, and early timers.
// Both only make things faster. PostgreSQL holds the state and every deadline, and the sweeps find
// what a lost message or timer missed, so a Redis that is down never turns a committed transition
// into an error: the failure is logged and the caller gets its answer.
import "server-only";
import { channels, notify } from "../../events";
import { log } from "../../log";
import { scheduleAt, scheduleShared, TIMER_JOBS, type TimerName } from "../timers";

const EFFECTS_WAIT_MS = 1_500;

/** `shared`: one timer for many transitions (./timers scheduleShared). */
export type Timer = { name: TimerName; data: Record<string, string | number>; at: Date; id: string; shared?: true };

export class Effects {
  readonly channels = new Set<string>();
  readonly timers: Timer[] = [];

  stepChanged(step: { id: string; userId: string }): this {
    this.channels.add(channels.step(step.id)).add(channels.userSteps(step.userId));
    return this;
  }

  /**
   * A step's run was placed or started: only those who follow its progress (MCP, the person's
   * pages) are woken, not those who wait for it to end (a long poll would read it for nothing).
   */
  stepProgressed(step: { id: string; userId: string }): this {
    this.channels.add(channels.stepProgress(step.id)).add(channels.userSteps(step.userId));
    return this;
  }

  /** A job became claimable: the person's own Links and the pool are woken. */
  jobQueued(userId: string): this {
    this.channels.add(channels.userJobs(userId)).add(channels.poolJobs());
    return this;
  }

  /** A job a Link holds was withdrawn: its Link hears it at its next heartbeat, sooner if awake. */
  linkChanged(linkId: string | null): this {
    if (linkId) this.channels.add(channels.link(linkId));
    return this;
  }

  /** A queued job expires at `at`: the timer of that second, which expires every job then due. */
  jobExpires(at: Date): this {
    return this.secondTimer(TIMER_JOBS.jobsDue, "jobs-due", at);
  }

  /** A placed or running job's lease ends at `at`: the timer of that second, for every lease then due. */
  leaseEnds(at: Date): this {
    return this.secondTimer(TIMER_JOBS.leasesDue, "leases-due", at);
  }

  private secondTimer(name: TimerName, prefix: string, at: Date): this {
    const second = Math.ceil(at.getTime() / 1000);
    return this.timer({ name, data: { second }, at: new Date(second * 1000), id: `${prefix}-${second}`, shared: true });
  }

  timer(timer: Timer): this {
    this.timers.push(timer);
    return this;
  }

  merge(other: Effects): this {
    for (const name of other.channels) this.channels.add(name);
    this.timers.push(...other.timers);
    return this;
  }

  /**
   * Runs after the transaction committed. Never throws, and waits at most EFFECTS_WAIT_MS: a Redis
   * that does not answer (BullMQ queues commands until it is back) must not hold up the answer.
   */
  async run(): Promise<void> {
    const work: Promise<unknown>[] = [];
    if (this.channels.size) work.push(notify(...this.channels));
    for (const t of this.timers) work.push((t.shared ? scheduleShared : scheduleAt)(t.name, t.data, t.at, t.id));
    if (!work.length) return;
    const settled = Promise.allSettled(work).then((outcomes) => {
      for (const outcome of outcomes) {
        if (outcome.status === "rejected") log.warn("lifecycle.effect_failed", { err: outcome.reason });
      }
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        log.warn("lifecycle.effects_slow", { waitedMs: EFFECTS_WAIT_MS });
        resolve();
      }, EFFECTS_WAIT_MS);
      timer.unref();
    });
    await Promise.race([settled, late]);
    clearTimeout(timer);
  }
}
