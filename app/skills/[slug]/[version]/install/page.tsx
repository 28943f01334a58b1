import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { DiffView } from "@/components/diff-view";
import { NetBadge } from "@/components/net-badge";
import { OutsideScriptsLine } from "@/components/outside-scripts";
import { ScanBadge, TrustBadge } from "@/components/skill-card";
import { asksLine } from "@/lib/registry/plain-words";
import { getSession } from "@/lib/auth";
import { callCost, callCostWords } from "@/lib/billing/call-cost";
import { AppError } from "@/lib/errors";
import { installPlan, type InstallPlan } from "@/lib/installs";
import { InstallForm } from "./page-client";
import styles from "./install.module.css";
import { decodeParam as decode } from "../../../_components/decode-param";

type Props = { params: Promise<{ slug: string; version: string }> };

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const day = (iso: string) => dateFormat.format(new Date(iso));

const load = cache(async (slug: string, version: string, userId: string | null): Promise<InstallPlan | null> => {
  try {
    return await installPlan({ slug: decode(slug), version: decode(version), userId });
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, version } = await params;
  const user = await getSession();
  const plan = await load(slug, version, user?.userId ?? null);
  return { title: plan ? `Install ${plan.version.name} ${plan.version.version}` : "Not found" };
}

export default async function InstallPage({ params }: Props) {
  const { slug, version } = await params;
  const user = await getSession();
  const plan = await load(slug, version, user?.userId ?? null);
  if (!plan) notFound();
  const v = plan.version;
  const s = plan.skill;
  const here = `/skills/${s.slug}/${v.version}/install`;
  const caps = plan.capabilities;
  const community = s.trust === "community";

  return (
    <article className={styles.page}>
      <p className="breadcrumb">
        <Link href="/">Browse</Link> / <Link href={`/skills/${s.slug}`}>{s.slug}</Link> /{" "}
        <Link href={`/skills/${s.slug}/${v.version}`}>{v.version}</Link> / Install
      </p>
      <h1>
        Install {v.name} <span className={styles.ref}>{`${s.slug}@${v.version}`}</span>
      </h1>
      <p className={styles.summary}>{v.summary}</p>

      <section
        className={`panel ${community && caps.runs === "sandbox" ? styles.caution : ""}`}
        aria-labelledby="trust-title"
      >
        <h2 id="trust-title">Who made it</h2>
        {community ? (
          <p>
            <TrustBadge trust={s.trust} /> Written by {s.author.name}{" "}
            <span className="mono muted">@{s.author.handle}</span>.{" "}
            {caps.runs === "sandbox"
              ? "OpenVibe's scanner read its code, but no one at OpenVibe reviewed it. Its code runs only in a sandbox, with what is listed below."
              : "It is instructions for your agent; no one at OpenVibe reviewed them."}
          </p>
        ) : (
          <p>
            <TrustBadge trust={s.trust} /> Made and maintained by OpenVibe ({s.author.name}).
          </p>
        )}
      </section>

      <section className="panel" aria-labelledby="asks-title">
        <h2 id="asks-title">What it asks for</h2>
        <p>
          <strong>{caps.runsWords}.</strong>
        </p>
        {caps.asks.length ? <p data-testid="asks">{asksLine(caps.asks)}</p> : null}
        <OutsideScriptsLine names={caps.outsideScripts} />
        {caps.outsideScripts.length ? (
          <ul className={styles.tools} aria-label="Scripts that run outside the sandbox">
            {caps.outsideScripts.map((name) => {
              const own = plan.findings.filter((f) => f.resource === name);
              return (
                <li key={name} className={styles.tool} data-script={name}>
                  <p className={styles.toolHead}>
                    <code className={styles.toolName}>{name}</code>
                  </p>
                  {own.length ? (
                    <ul>
                      {own.map((f, i) => (
                        <li key={i}>
                          <strong>{f.severity === "fail" ? "Not allowed" : "Flagged"}</strong> line {f.line}:{" "}
                          {f.message}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className={styles.toolText}>The audit found nothing in it that needs your attention.</p>
                  )}
                </li>
              );
            })}
          </ul>
        ) : null}
        {caps.kinds.length ? (
          <>
            <p>It asks to be allowed:</p>
            <ul className={styles.kinds}>
              {caps.kinds.map((k) => (
                <li key={k.kind}>
                  {k.words === k.kind ? null : `${k.words} `}
                  <code>{k.kind}</code>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>It asks for no approval kinds.</p>
        )}
        {caps.tools.length ? (
          <>
            <h3 id="tools-title" className={styles.toolsTitle}>
              Its tools
            </h3>
            <ul className={styles.tools} aria-labelledby="tools-title">
              {caps.tools.map((t) => (
                <li key={t.name} className={styles.tool} data-tool={t.name}>
                  <p className={styles.toolHead}>
                    <code className={styles.toolName}>{t.name}</code>
                    <NetBadge net={t.net} />
                    <span className={styles.limits}>{t.limitsWords}</span>
                  </p>
                  <p className={styles.toolText}>{t.description}</p>
                  <p className={styles.toolCost} data-testid="tool-cost">
                    One call costs {callCostWords(callCost(t.limits.wall_ms))}.
                  </p>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <p className="hint">
          Installing runs nothing. Runs are charged per started second of wall time, up to each tool&apos;s limit, from
          your Balance. Each time an agent calls a tool you are asked first, unless you choose “always allow” for that
          tool of this exact version. You can disable or uninstall the skill at any time under My skills.
        </p>
      </section>

      <section className="panel" aria-labelledby="scan-title">
        <h2 id="scan-title">What the scan found</h2>
        <p>
          <ScanBadge status={v.status} />{" "}
          {v.status === "passed"
            ? "The scan read the code and found nothing that needs your attention."
            : v.status === "flagged"
              ? "Read these findings before installing."
              : v.status === "failed"
                ? "The findings below show what a skill may never do."
                : "The scan has not finished yet."}
        </p>
        {plan.findings.length ? (
          <ol className={styles.findings} aria-label="Scan findings">
            {plan.findings.map((f, i) => (
              <li key={i} className={f.severity === "fail" ? styles.findingFail : styles.findingFlag}>
                <p className={styles.findingHead}>
                  <strong>{f.severity === "fail" ? "Not allowed" : "Flagged"}</strong>
                  {f.tool ? (
                    <>
                      {" "}
                      in tool <code>{f.tool}</code>
                    </>
                  ) : null}{" "}
                  <span className="mono muted">
                    {f.resource}:{f.line}:{f.column}
                  </span>{" "}
                  <span className="mono muted">{f.rule}</span>
                </p>
                <p>{f.message}</p>
                {f.excerpt ? <pre className={styles.excerpt}>{f.excerpt}</pre> : null}
              </li>
            ))}
          </ol>
        ) : null}
      </section>

      {plan.block ? (
        <section className={`panel ${styles.blocked}`} aria-labelledby="blocked-title" data-block={plan.block.code}>
          <h2 id="blocked-title">This version cannot be installed</h2>
          <p>
            {plan.block.reason}
            {v.retiredAt ? ` (retired ${day(v.retiredAt)})` : null}
          </p>
          {plan.newer ? (
            <p>
              <Link href={`/skills/${s.slug}/${plan.newer}/install`} className="button">
                See {plan.newer} instead
              </Link>
            </p>
          ) : null}
        </section>
      ) : plan.installed?.sameVersion && !plan.installed.ackStale ? (
        <section className="panel" aria-labelledby="installed-title">
          <h2 id="installed-title">Installed</h2>
          <p>
            You have {s.slug} {v.version} installed{plan.installed.enabled ? "" : ", disabled"}.{" "}
            <Link href="/dashboard/skills">Manage it under My skills</Link>.
          </p>
        </section>
      ) : (
        <>
          {plan.installed && plan.diff ? <DiffView diff={plan.diff} grantTools={plan.installed.grantTools} /> : null}
          <section className="panel" aria-labelledby="install-title">
            <h2 id="install-title">
              {plan.installed?.ackStale
                ? "Confirm the findings again"
                : plan.diff
                  ? plan.diff.direction === "downgrade"
                    ? "Go back to"
                    : "Upgrade to"
                  : "Install"}{" "}
              {plan.installed?.ackStale ? null : v.version}
            </h2>
            {plan.installed?.ackStale ? (
              <p>
                You have this version installed, but its scan findings changed since you confirmed them. Its tools
                cannot run until you read them and confirm again.
              </p>
            ) : null}
            {user ? (
              <InstallForm
                slug={s.slug}
                version={v.version}
                needsAck={plan.needsAck}
                findingsHash={plan.findingsHash}
                findingsCount={plan.findings.length}
                action={
                  plan.installed?.ackStale
                    ? "reconfirm"
                    : plan.diff
                      ? plan.diff.direction === "downgrade"
                        ? "downgrade"
                        : "upgrade"
                      : "install"
                }
                from={plan.installed?.version ?? null}
              />
            ) : (
              <p>
                <Link href={`/signin?next=${encodeURIComponent(here)}`} className="button button-primary">
                  Sign in to install
                </Link>
              </p>
            )}
          </section>
        </>
      )}
      {plan.newer && !plan.block ? (
        <p className="muted">
          A newer version is available: <Link href={`/skills/${s.slug}/${plan.newer}/install`}>{plan.newer}</Link>.
        </p>
      ) : null}
    </article>
  );
}
