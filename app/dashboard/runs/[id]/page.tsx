import Link from "next/link";
import { LiveRefresh } from "@/components/live-refresh";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth";
import { formatMicros } from "@/lib/billing/rates";
import { AppError } from "@/lib/errors";
import { NET_WORDS, describeLimits } from "@/lib/registry/plain-words";
import { getRunForPerson } from "@/lib/runs";
import { AttestationSection } from "./attestation-section";
import { RunAgain } from "./run-again";
import styles from "./run.module.css";

export const metadata = { title: "Run" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

const timeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
const when = (d: Date | null) => (d ? `${timeFormat.format(d)} UTC` : "—");

function duration(ms: number | null) {
  if (ms === null) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

const between = (a: Date | null, b: Date | null) => (a && b ? duration(b.getTime() - a.getTime()) : "—");

/** Data shown as data: pretty JSON as text (React escapes it), never interpreted as HTML. */
const pretty = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value, null, 2));

const STATE_WORDS: Record<string, string> = {
  queued: "queued, waiting for a machine",
  placed: "placed on a machine",
  running: "running",
  succeeded: "succeeded",
  failed: "failed",
  cancelled: "cancelled",
  expired: "expired",
};

async function loadRun(userId: string, id: string) {
  try {
    return await getRunForPerson(userId, id);
  } catch (err) {
    if (err instanceof AppError && err.code === "run.job.not_found") notFound();
    throw err;
  }
}

export default async function RunPage({ params }: Props) {
  const { id } = await params;
  const user = await requireUser(`/dashboard/runs/${id}`);
  const run = await loadRun(user.userId, id);
  const input = pretty(run.input);
  const output = pretty(run.output);
  return (
    <>
      <p className="breadcrumb">
        <Link href="/dashboard">Dashboard</Link> / <Link href="/dashboard/approvals">Approvals</Link> / Run
      </p>
      {["queued", "placed", "running"].includes(run.state) ? <LiveRefresh events={["steps"]} /> : null}
      <h1 className={styles.title}>
        Run <span className="mono">{run.target ?? run.id}</span>
      </h1>
      <p>
        <span className={`pill ${styles.state} ${styles[`state_${run.state}`] ?? ""}`}>
          {STATE_WORDS[run.state] ?? run.state}
        </span>
        {run.result_status && run.result_status !== run.state ? (
          <span className="muted">
            {" "}
            · result: {run.result_status}
            {run.result_late ? " (arrived after it expired; not charged)" : ""}
          </span>
        ) : null}
        {run.cancel_code ? <span className="muted"> · {run.cancel_code}</span> : null}
        {run.exit !== null ? <span className="muted"> · exit code {run.exit}</span> : null}
      </p>
      {run.target ? <RunAgain jobId={run.id} /> : null}
      {run.step_message ? (
        <p className={run.state === "succeeded" ? "notice" : `notice ${styles.message}`}>{run.step_message}</p>
      ) : null}

      <section className="panel" aria-labelledby="facts-title">
        <h2 id="facts-title">About this run</h2>
        <dl className={`facts ${styles.facts}`}>
          <dt>Agent</dt>
          <dd>{run.agent ?? "—"}</dd>
          <dt>Ran on</dt>
          <dd data-testid="ran-on">
            {run.link ? (
              <>
                your Link <Link href="/dashboard/links">{run.link.name}</Link>
              </>
            ) : (
              (run.ran_on ?? "not placed yet")
            )}
          </dd>
          <dt>Network</dt>
          <dd>{NET_WORDS[run.net]}</dd>
          <dt>Limits</dt>
          <dd>{describeLimits(run.limits)}</dd>
          <dt>Cost</dt>
          <dd>{run.cost_micros === null ? "not settled yet" : formatMicros(run.cost_micros)}</dd>
          <dt>Memory used</dt>
          <dd>{run.max_rss_bytes === null ? "—" : `${Math.round(run.max_rss_bytes / (1024 * 1024))} MiB`}</dd>
        </dl>
      </section>

      <section className="panel" aria-labelledby="timing-title">
        <h2 id="timing-title">Timing</h2>
        <dl className={`facts ${styles.facts}`}>
          <dt>Queued</dt>
          <dd>{when(run.created_at)}</dd>
          <dt>Placed</dt>
          <dd>
            {when(run.placed_at)}{" "}
            {run.placed_at ? <span className="muted">(after {between(run.created_at, run.placed_at)})</span> : null}
          </dd>
          <dt>Started</dt>
          <dd>{when(run.started_at)}</dd>
          <dt>Finished</dt>
          <dd>{when(run.finished_at)}</dd>
          <dt>Wall time</dt>
          <dd>{duration(run.wall_ms)}</dd>
        </dl>
      </section>

      <section aria-labelledby="input-title">
        <h2 id="input-title">Input</h2>
        {input === null ? (
          <p className="empty">No input recorded.</p>
        ) : (
          <pre className={styles.data} tabIndex={0} aria-label="Input as JSON">
            {input}
          </pre>
        )}
      </section>

      <section aria-labelledby="output-title">
        <h2 id="output-title">Output</h2>
        <p className="hint">The skill&apos;s answer, shown as data. Your agent receives it marked as untrusted.</p>
        {output === null ? (
          <p className="empty">No output (yet).</p>
        ) : (
          <pre className={styles.data} tabIndex={0} aria-label="Output as JSON">
            {output}
          </pre>
        )}
      </section>

      <section aria-labelledby="stderr-title">
        <h2 id="stderr-title">Error output (stderr)</h2>
        <p className="hint">Only you see this; your agent never does.</p>
        {run.stderr ? (
          <pre className={styles.data} tabIndex={0} aria-label="Error output">
            {run.stderr}
          </pre>
        ) : (
          <p className="empty">Nothing was written to stderr.</p>
        )}
      </section>

      <AttestationSection runId={run.id} attestation={run.attestation} />
    </>
  );
}
