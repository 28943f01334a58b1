// Before the first run of a skill version, the Link checks it against the registry's transparency
// log, with the same code as `openvibe verify` (lib/tlog/verify-version.ts): the log key (published
// or pinned at first use), a signed checkpoint consistent with the last one this Link accepted, the
// listing's integrity recomputed from its code bytes, its log entry and inclusion proof. It also
// checks that the job runs that very integrity. A version that passes is remembered for the life
// of the process; one that fails is refused (and checked again next time: a log can catch up).
import path from "node:path";
import { z } from "zod";
import { httpLogSource, SourceError } from "../../lib/tlog/http-source";
import { knownLogKey } from "../../lib/tlog/known-logs";
import { TrustStore } from "../../lib/tlog/trust-store";
import { verifyVersion, type CheckName, type LogSource } from "../../lib/tlog/verify-version";

export type LogRefusal = {
  code: "run.job.not_in_log" | "run.job.listing_changed" | "run.job.log_unverifiable";
  message: string;
};
type Skill = { slug: string; version: string; integrity: string };

const CODE_OF: Record<CheckName, LogRefusal["code"]> = {
  key: "run.job.log_unverifiable",
  checkpoint: "run.job.log_unverifiable",
  consistency: "run.job.log_unverifiable",
  listing: "run.job.listing_changed",
  code: "run.job.listing_changed",
  integrity: "run.job.listing_changed",
  entries: "run.job.not_in_log",
  inclusion: "run.job.not_in_log",
};

/** How long a log read is retried while the registry is unreachable or restarting (about 12 s). */
const REACH_BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000, 4_000];

const isTransient = (err: unknown) => err instanceof SourceError && err.transient;

/**
 * The source with each read retried while the registry cannot be reached; `unreachable` keeps the
 * last error that outlasted the retries, so a restart is never taken for a version missing from the log.
 */
function reachable(source: LogSource): { source: LogSource; unreachable: () => unknown } {
  let unreachable: unknown = null;
  const retried =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await read(...args);
        } catch (err) {
          if (!isTransient(err) || attempt >= REACH_BACKOFF_MS.length) {
            if (isTransient(err)) unreachable = err;
            throw err;
          }
          await new Promise((r) => setTimeout(r, REACH_BACKOFF_MS[attempt]));
        }
      }
    };
  return {
    unreachable: () => unreachable,
    source: {
      key: retried(() => source.key()),
      checkpoint: retried(() => source.checkpoint()),
      consistency: retried((from: number, to: number) => source.consistency(from, to)),
      inclusion: retried((index: number, size: number) => source.inclusion(index, size)),
      versionEntries: retried((slug: string, version: string) => source.versionEntries(slug, version)),
      entries: retried((start: number, end: number) => source.entries(start, end)),
      listing: retried((slug: string, version: string) => source.listing(slug, version)),
      document: retried((slug: string, version: string) => source.document(slug, version)),
      code: retried((slug: string, version: string, sha256: string) => source.code(slug, version, sha256)),
    },
  };
}

const servedListingSchema = z.object({ skill: z.object({ integrity: z.string().max(100) }) });
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class LogCheck {
  /** Integrity hashes of versions that passed, with the log entry that proved them. */
  private readonly passed = new Map<string, number>();
  private readonly source: LogSource;

  constructor(
    private readonly server: string,
    /** Where the pinned log key and the last accepted checkpoint are kept (the Link's home). */
    private readonly stateDir: string,
    source?: LogSource,
  ) {
    this.source = source ?? httpLogSource(server);
  }

  static forHome(server: string, home: string): LogCheck {
    return new LogCheck(server, path.join(home, "log"));
  }

  /** Null when the version is in the log as the job names it; else why this Link refuses it. */
  async check(skill: Skill): Promise<LogRefusal | null> {
    if (this.passed.has(skill.integrity)) return null;
    let servedIntegrity: string | null = null;
    const reach = reachable(this.source);
    const source: LogSource = {
      ...reach.source,
      listing: async (slug, version) => {
        const listing = await reach.source.listing(slug, version);
        const read = servedListingSchema.safeParse(listing);
        servedIntegrity = read.success ? read.data.skill.integrity : null;
        return listing;
      },
    };
    let store: TrustStore;
    try {
      store = await TrustStore.open(this.stateDir);
    } catch (err) {
      return { code: "run.job.log_unverifiable", message: messageOf(err) };
    }
    const pinned = store.entry(this.server);
    let report;
    try {
      report = await verifyVersion(source, {
        slug: skill.slug,
        version: skill.version,
        trustedKey: knownLogKey(this.server) ?? pinned?.vkey ?? null,
        previousCheckpoint: pinned?.checkpoint ?? null,
      });
    } catch (err) {
      return {
        code: "run.job.log_unverifiable",
        message: `The transparency log could not be checked: ${messageOf(err)}`,
      };
    }
    if (report.checks.find((c) => c.name === "key")?.ok && report.servedKey) {
      await store
        .save(this.server, report.servedKey, report.checkpoint?.note ?? pinned?.checkpoint ?? null)
        .catch(() => undefined);
    }
    const failed = report.checks.find((c) => !c.ok);
    const unreachable = reach.unreachable();
    if ((!report.ok || failed) && unreachable) {
      return {
        code: "run.job.log_unverifiable",
        message: `The transparency log could not be reached: ${messageOf(unreachable)}`,
      };
    }
    if (!report.ok || failed) {
      const name = failed?.name ?? "entries";
      return {
        code: CODE_OF[name],
        message: `${skill.slug}@${skill.version} does not match the registry's transparency log (${name}: ${failed?.detail ?? "not verified"}).`,
      };
    }
    if (servedIntegrity !== skill.integrity) {
      return {
        code: "run.job.listing_changed",
        message: `The job runs ${skill.integrity}, but the logged listing of ${skill.slug}@${skill.version} is ${servedIntegrity}.`,
      };
    }
    this.passed.set(skill.integrity, report.entries.find((e) => e.event === "publish")?.index ?? -1);
    return null;
  }
}
