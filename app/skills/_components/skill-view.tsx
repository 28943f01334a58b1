// The skill page of one version: what it does, where its code runs and how far it reaches, what
// the scan found, the exact bytes (integrity hash, pinned sha256, the code itself) and the most one
// run can cost. Shared by /skills/<slug> (latest live version) and /skills/<slug>/<version>.
import Link from "next/link";
import { FindingsList, lineAnchor } from "@/components/findings-list";
import { LiveRefresh } from "@/components/live-refresh";
import { Markdown } from "@/components/markdown";
import { NetBadge } from "@/components/net-badge";
import { OutsideScriptsLine } from "@/components/outside-scripts";
import { installsWords, ScanBadge, TrustBadge } from "@/components/skill-card";
import { RATE_PER_SECOND_MICROS, formatMicros } from "@/lib/billing/rates";
import { asksLine } from "@/lib/registry/plain-words";
import type { ResourceView, SkillPageData, ToolView } from "@/lib/registry/skill-page";
import { LogLine } from "./log-line";
import styles from "./skill-view.module.css";
import { ColumnHeads } from "@/components/column-heads";

// UTC and a fixed locale so the server's words match whatever the reader's browser is set to.
const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const day = (iso: string) => dateFormat.format(new Date(iso));

const SCAN_WORDS = {
  passed: "The scan read the code and found nothing that needs your attention.",
  flagged: "The scan flagged something in the code: read the findings before installing.",
  failed: "The scan failed this version: it can never be installed or run.",
  scanning: "The scan has not finished yet; installing waits for it.",
} as const;

export function SkillView({ data }: { data: SkillPageData }) {
  const v = data.version;
  const installable = !v.retiredAt && (v.status === "passed" || v.status === "flagged");
  const findingsByTool = (tool: string) => data.findings.filter((f) => f.tool === tool).length;
  return (
    <article className={styles.page}>
      {/* The author's scan events (or a slow poll for anyone else) show the verdict when it lands. */}
      {v.status === "scanning" ? <LiveRefresh events={["scans"]} /> : null}
      <p className="breadcrumb">
        <Link href="/">Browse</Link> / <Link href={`/skills/${data.slug}`}>{data.slug}</Link>
        {v.isLatest ? null : <> / {v.version}</>}
      </p>

      <header className={styles.header}>
        <h1 className={styles.title}>
          {v.name} <span className={styles.ref}>{`${data.slug}@${v.version}`}</span>
        </h1>
        <p className={styles.lead}>{v.summary}</p>
        <p className={styles.meta}>
          <span>
            by <Link href={`/authors/${data.author.handle}`}>{data.author.name}</Link>{" "}
            <span className="mono muted">@{data.author.handle}</span>
          </span>
          <TrustBadge trust={data.trust} />
          <span>{installsWords(data.installs)}</span>
          <ScanBadge status={v.status} />
          {v.retiredAt ? <span className={styles.retiredBadge}>Retired</span> : null}
        </p>
        {v.retiredAt ? (
          <div className={styles.retired} role="note">
            <p>
              This version was retired on {day(v.retiredAt)}. It stays readable here, but it can no longer be installed
              or run.
              {data.latest ? (
                <>
                  {" "}
                  The current version is <Link href={`/skills/${data.slug}/${data.latest}`}>{data.latest}</Link>.
                </>
              ) : (
                " Every version of this skill is retired."
              )}
            </p>
          </div>
        ) : !v.isLatest && data.latest ? (
          <p className={styles.note}>
            A newer version exists: <Link href={`/skills/${data.slug}/${data.latest}`}>{data.latest}</Link>.
          </p>
        ) : null}
        <div className="actions">
          {installable ? (
            <Link href={`/skills/${data.slug}/${v.version}/install`} className="button button-primary">
              Install {v.version}
            </Link>
          ) : (
            <p className={styles.note}>
              {v.retiredAt
                ? "Retired versions cannot be installed."
                : v.status === "failed"
                  ? "This version failed its scan and cannot be installed."
                  : "Installing opens when the scan has finished."}
            </p>
          )}
        </div>
      </header>

      {data.sandboxLine ? (
        <section className={`panel ${styles.sandbox}`} aria-labelledby="runs-title">
          <h2 id="runs-title">{data.sandboxLine}</h2>
          <p>
            Its code runs only inside a sandbox on a Link — your own machine first, else a machine OpenVibe offers —
            with the network limited per tool, never on our servers and never with your secrets. Each run asks for your
            approval.
          </p>
          <ul className={styles.netList}>
            {data.tools.map((t) => (
              <li key={t.name}>
                <code>{t.name}</code> <NetBadge net={t.net} />
              </li>
            ))}
          </ul>
        </section>
      ) : (
        <section className="panel" aria-labelledby="runs-title">
          <h2 id="runs-title">Instructions only</h2>
          {v.outsideScripts.length ? (
            <p>This skill is a document for your agent to read. OpenVibe runs none of it.</p>
          ) : (
            <p>This skill is a document for your agent to read. It carries no code, so nothing of it runs anywhere.</p>
          )}
          {v.asks.length ? <p data-testid="asks">{asksLine(v.asks)}</p> : null}
          <OutsideScriptsLine names={v.outsideScripts.map((x) => x.name)} />
          {v.outsideScripts.length ? (
            <ul aria-label="Scripts that run outside the sandbox">
              {v.outsideScripts.map((x) => (
                <li key={x.name}>
                  <code>{x.name}</code>:{" "}
                  {x.findings.length
                    ? x.findings
                        .map(
                          (f) => `${f.severity === "fail" ? "not allowed" : "flagged"} (line ${f.line}): ${f.message}`,
                        )
                        .join("; ")
                    : "the audit found nothing that needs your attention"}
                </li>
              ))}
            </ul>
          ) : null}
          {v.importedFromSkillMd ? (
            <p className={styles.note}>Imported from SKILL.md (an Agent Skills folder).</p>
          ) : null}
          <p>
            <a
              className="button"
              href={`/api/v1/skills/${encodeURIComponent(data.slug)}/${encodeURIComponent(v.version)}/skill-md`}
              download={`${data.slug}-${v.version}.zip`}
            >
              Download SKILL.md folder
            </a>{" "}
            <span className="hint">A .zip of an Agent Skills folder: SKILL.md and its resources.</span>
          </p>
        </section>
      )}

      {data.tools.length ? (
        <section aria-labelledby="tools-title">
          <h2 id="tools-title">Tools</h2>
          <div className={styles.tools}>
            {data.tools.map((t) => (
              <ToolPanel key={t.name} tool={t} findings={findingsByTool(t.name)} />
            ))}
          </div>
        </section>
      ) : null}

      <section aria-labelledby="scan-title">
        <h2 id="scan-title">Scan</h2>
        <p>
          <ScanBadge status={v.status} /> {SCAN_WORDS[v.status]}
          {data.scannedAt ? <span className="muted"> Scanned {day(data.scannedAt)}.</span> : null}
        </p>
        {v.runs === "sandbox" || data.findings.length ? <FindingsList findings={data.findings} /> : null}
      </section>

      <section aria-labelledby="instructions-title" className={`panel ${styles.instructions}`}>
        <h2 id="instructions-title">Instructions</h2>
        <Markdown html={v.instructionsHtml} source={v.instructions} />
      </section>

      {data.resources.length ? (
        <section aria-labelledby="resources-title">
          <h2 id="resources-title">Resources</h2>
          <ul className={styles.resources}>
            {data.resources.map((r) => (
              <li key={r.name}>
                <ResourcePanel resource={r} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="integrity-title">
        <h2 id="integrity-title">Integrity</h2>
        <p>
          The hash of this version&apos;s whole content — instructions, resources, code and tools. Any change to any of
          them changes it.
        </p>
        <p className={styles.hash}>
          <code>{v.integrity}</code>
        </p>
        <LogLine log={data.log} skillRef={`${data.slug}@${v.version}`} />
        <p className="muted">
          Contract <code>{v.contract}</code>
          {v.kinds.length ? (
            <>
              {" "}
              · asks for <code>{v.kinds.join(", ")}</code>
            </>
          ) : null}
        </p>
      </section>

      <section aria-labelledby="versions-title">
        <h2 id="versions-title">Versions</h2>
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="versions-title">
          <table className={`data-table ${styles.table}`}>
            <ColumnHeads names={["Version", "Published", "Scan", "State"]} />
            <tbody>
              {data.versions.map((x) => (
                <tr key={x.version} aria-current={x.version === v.version ? "page" : undefined}>
                  <td>
                    {x.version === v.version ? (
                      <strong className="mono">{x.version}</strong>
                    ) : (
                      <Link href={`/skills/${data.slug}/${x.version}`} className="mono">
                        {x.version}
                      </Link>
                    )}
                    {x.version === data.latest ? <span className="badge">latest</span> : null}
                  </td>
                  <td>{day(x.publishedAt)}</td>
                  <td>
                    <ScanBadge status={x.status} />
                  </td>
                  <td>
                    {x.retiredAt ? <span className={styles.retiredBadge}>Retired {day(x.retiredAt)}</span> : "Live"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </article>
  );
}

function ToolPanel({ tool: t, findings }: { tool: ToolView; findings: number }) {
  const seconds = t.limits.wall_ms / 1000;
  return (
    <section className={`panel ${styles.tool}`} aria-labelledby={`tool-${t.name}`}>
      <h3 id={`tool-${t.name}`}>
        <code>{t.name}</code>
      </h3>
      <p>{t.description}</p>
      <dl className={styles.facts}>
        <dt>Network</dt>
        <dd>
          <NetBadge net={t.net} />
        </dd>
        <dt>Limits</dt>
        <dd>{t.limitsWords}</dd>
        <dt>Cost of one run</dt>
        <dd>
          at most <strong>{t.maxCost}</strong> from your Balance ({seconds} s at its limit on a shared machine, at{" "}
          {formatMicros(RATE_PER_SECOND_MICROS.pool)} per second; less on your own machine)
        </dd>
        <dt>Code</dt>
        <dd>
          <a href={`#${lineAnchor(t.entry, 1)}`} className="mono">
            {t.entry}
          </a>
        </dd>
        <dt>Scan</dt>
        <dd>{findings ? `${findings} finding${findings === 1 ? "" : "s"} (see Scan)` : "no findings"}</dd>
      </dl>
      {t.args.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={`Arguments of ${t.name}`}>
          <table className={`data-table ${styles.table}`}>
            <caption className="visually-hidden">Arguments of {t.name}</caption>
            <ColumnHeads names={["Argument", "Type", "Required", "Rules"]} />
            <tbody>
              {t.args.map((a) => (
                <tr key={a.name}>
                  <td>
                    <code>{a.name}</code>
                  </td>
                  <td>{a.type}</td>
                  <td>{a.required ? "yes" : "no"}</td>
                  <td>{a.rules.length ? a.rules.join("; ") : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">Takes no arguments.</p>
      )}
    </section>
  );
}

function ResourcePanel({ resource: r }: { resource: ResourceView }) {
  const lines = r.text.split("\n");
  return (
    <details className={`card ${styles.resource}`} open={r.isCode && lines.length <= 200 ? true : undefined}>
      <summary>
        <span className="mono">{r.name}</span>{" "}
        <span className="muted">
          {r.mediaType} · {r.bytes} bytes
        </span>
      </summary>
      {r.pin ? (
        <p className={styles.pin}>
          Pinned sha256 <code>{r.pin.sha256}</code>{" "}
          {r.pin.matches ? (
            <span className="muted">— the bytes below: exactly what the scan reads and what runs.</span>
          ) : (
            <strong className={styles.mismatch}>— does not match the text below.</strong>
          )}
        </p>
      ) : null}
      {r.isCode ? (
        <pre className={styles.code} tabIndex={0} aria-label={`Code of ${r.name}`}>
          <code>
            {lines.map((line, i) => (
              <span key={i} id={lineAnchor(r.name, i + 1)} className={styles.line}>
                <span className={styles.lineNo} aria-hidden="true">
                  {i + 1}
                </span>
                {line}
                {"\n"}
              </span>
            ))}
          </code>
        </pre>
      ) : r.html !== null ? (
        <Markdown html={r.html} source={r.text} />
      ) : (
        <pre className={styles.text} tabIndex={0}>
          {r.text}
        </pre>
      )}
    </details>
  );
}
