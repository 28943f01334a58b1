// The capability diff shown before a person moves an install to another version: what the new
// version may do that the installed one could not, what it stops doing, and the "always allow"
// grants that will be dropped because a new version asks again.
import { limitWords, type CapabilityDiff } from "@/lib/installs/capabilities";
import styles from "./diff-view.module.css";

const LIMIT_NAMES = { wall_ms: "time per run", mem_bytes: "memory per run" } as const;

function Group({
  title,
  tone,
  children,
}: {
  title: string;
  tone: "wider" | "narrower" | "neutral";
  children: React.ReactNode;
}) {
  return (
    <div className={`${styles.group} ${styles[tone]}`}>
      <h3 className={styles.groupTitle}>{title}</h3>
      <ul className={styles.list}>{children}</ul>
    </div>
  );
}

export function DiffView({ diff, grantTools }: { diff: CapabilityDiff; grantTools: string[] }) {
  const verb = diff.direction === "downgrade" ? "Going back" : "Moving";
  return (
    <section className={styles.diff} aria-labelledby="diff-title">
      <h2 id="diff-title">
        What changes from {diff.from} to {diff.to}
      </h2>
      <p>
        {verb} from <span className="mono">{diff.from}</span> to <span className="mono">{diff.to}</span>
        {diff.widens ? (
          <strong className={styles.widens}> gives the skill more than you approved before:</strong>
        ) : diff.unchanged ? (
          <> changes nothing you consent to.</>
        ) : (
          <> narrows what the skill can do:</>
        )}
      </p>

      {diff.runsChanged ? (
        <Group title="How it runs" tone={diff.runsChanged.to === "sandbox" ? "wider" : "narrower"}>
          <li>
            {diff.runsChanged.to === "sandbox"
              ? "Now runs code in a sandbox on your machine or OpenVibe's (before: instructions only)."
              : "Now instructions only: no code runs (before: code in a sandbox)."}
          </li>
        </Group>
      ) : null}
      {diff.asksAdded.length ? (
        <Group title="Its instructions now also ask your agent to" tone="wider">
          {diff.asksAdded.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </Group>
      ) : null}
      {diff.scriptsAdded.length ? (
        <Group title="New scripts that would run on your own machine, outside the sandbox" tone="wider">
          {diff.scriptsAdded.map((n) => (
            <li key={n}>
              <code>{n}</code>
            </li>
          ))}
        </Group>
      ) : null}
      {diff.kindsAdded.length ? (
        <Group title="Kinds added" tone="wider">
          {diff.kindsAdded.map((k) => (
            <li key={k.kind}>
              {k.words === k.kind ? null : `${k.words} `}
              <code>{k.kind}</code>
            </li>
          ))}
        </Group>
      ) : null}
      {diff.toolsAdded.length ? (
        <Group title="Tools added" tone="wider">
          {diff.toolsAdded.map((t) => (
            <li key={t.name}>
              <code>{t.name}</code>: {t.netWords}, {t.limitsWords}
            </li>
          ))}
        </Group>
      ) : null}
      {diff.netWidened.length ? (
        <Group title="Network widened" tone="wider">
          {diff.netWidened.map((n) => (
            <li key={n.tool}>
              <code>{n.tool}</code>: {n.fromWords} → <strong>{n.toWords}</strong>
            </li>
          ))}
        </Group>
      ) : null}
      {diff.limitsRaised.length ? (
        <Group title="Limits raised" tone="wider">
          {diff.limitsRaised.map((l) => (
            <li key={`${l.tool}-${l.limit}`}>
              <code>{l.tool}</code>: {LIMIT_NAMES[l.limit]} {limitWords(l.limit, l.from)} →{" "}
              <strong>{limitWords(l.limit, l.to)}</strong>
            </li>
          ))}
        </Group>
      ) : null}
      {diff.toolsRemoved.length ? (
        <Group title="Tools removed" tone="narrower">
          {diff.toolsRemoved.map((t) => (
            <li key={t.name}>
              <code>{t.name}</code>
            </li>
          ))}
        </Group>
      ) : null}
      {diff.netNarrowed.length ? (
        <Group title="Network narrowed" tone="narrower">
          {diff.netNarrowed.map((n) => (
            <li key={n.tool}>
              <code>{n.tool}</code>: {n.fromWords} → {n.toWords}
            </li>
          ))}
        </Group>
      ) : null}
      {diff.limitsLowered.length ? (
        <Group title="Limits lowered" tone="narrower">
          {diff.limitsLowered.map((l) => (
            <li key={`${l.tool}-${l.limit}`}>
              <code>{l.tool}</code>: {LIMIT_NAMES[l.limit]} {limitWords(l.limit, l.from)} → {limitWords(l.limit, l.to)}
            </li>
          ))}
        </Group>
      ) : null}
      {diff.kindsRemoved.length ? (
        <Group title="Kinds removed" tone="narrower">
          {diff.kindsRemoved.map((k) => (
            <li key={k.kind}>
              {k.words === k.kind ? null : `${k.words} `}
              <code>{k.kind}</code>
            </li>
          ))}
        </Group>
      ) : null}
      {diff.codeChanged.length ? (
        <Group title="Code changed" tone="neutral">
          {diff.codeChanged.map((t) => (
            <li key={t}>
              <code>{t}</code>: different code, scanned again for this version
            </li>
          ))}
        </Group>
      ) : null}

      <p className={styles.grants}>
        {grantTools.length ? (
          <>
            <strong>
              Your “always allow” for{" "}
              {grantTools.map((t, i) => (
                <span key={t}>
                  {i ? ", " : ""}
                  <code>{t}</code>
                </span>
              ))}{" "}
              on {diff.from} will be dropped.
            </strong>{" "}
            {diff.to} asks for your approval again before each tool runs.
          </>
        ) : (
          <>
            Grants never carry over: {diff.to} asks for your approval before each tool runs, as {diff.from} did.
          </>
        )}
      </p>
    </section>
  );
}
