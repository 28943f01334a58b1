// The capability diff shown before a person moves an install to another version: what the new
// version may do that the installed one could not, what it stops doing, and the "always allow"
// grants that will be dropped because a new version asks again.
import { limitWords, type CapabilityDiff } from "@/lib/installs/capabilities";
import styles from "./diff-view.module.css";

type Tone = "wider" | "narrower" | "neutral";

const LIMIT_NAMES = { wall_ms: "time per run", mem_bytes: "memory per run" } as const;

function Group({ title, tone, children }: { title: string; tone: Tone; children: React.ReactNode }) {
  return (
    <div className={`${styles.group} ${styles[tone]}`}>
      <h3 className={styles.groupTitle}>{title}</h3>
      <ul className={styles.list}>{children}</ul>
    </div>
  );
}

/** A Group of one `<li>` per item, or nothing when there are none. */
function Items<T>(props: {
  title: string;
  tone: Tone;
  items: readonly T[];
  keyOf: (item: T) => string;
  children: (item: T) => React.ReactNode;
}) {
  if (!props.items.length) return null;
  return (
    <Group title={props.title} tone={props.tone}>
      {props.items.map((item) => (
        <li key={props.keyOf(item)}>{props.children(item)}</li>
      ))}
    </Group>
  );
}

const kindItem = (k: { kind: string; words: string }) => (
  <>
    {k.words === k.kind ? null : `${k.words} `}
    <code>{k.kind}</code>
  </>
);

const limitKey = (l: { tool: string; limit: string }) => `${l.tool}-${l.limit}`;

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
      <Items title="Its instructions now also ask your agent to" tone="wider" items={diff.asksAdded} keyOf={(a) => a}>
        {(a) => a}
      </Items>
      <Items
        title="New scripts that would run on your own machine, outside the sandbox"
        tone="wider"
        items={diff.scriptsAdded}
        keyOf={(n) => n}
      >
        {(n) => <code>{n}</code>}
      </Items>
      <Items title="Kinds added" tone="wider" items={diff.kindsAdded} keyOf={(k) => k.kind}>
        {kindItem}
      </Items>
      <Items title="Tools added" tone="wider" items={diff.toolsAdded} keyOf={(t) => t.name}>
        {(t) => (
          <>
            <code>{t.name}</code>: {t.netWords}, {t.limitsWords}
          </>
        )}
      </Items>
      <Items title="Network widened" tone="wider" items={diff.netWidened} keyOf={(n) => n.tool}>
        {(n) => (
          <>
            <code>{n.tool}</code>: {n.fromWords} → <strong>{n.toWords}</strong>
          </>
        )}
      </Items>
      <Items title="Limits raised" tone="wider" items={diff.limitsRaised} keyOf={limitKey}>
        {(l) => (
          <>
            <code>{l.tool}</code>: {LIMIT_NAMES[l.limit]} {limitWords(l.limit, l.from)} →{" "}
            <strong>{limitWords(l.limit, l.to)}</strong>
          </>
        )}
      </Items>
      <Items title="Tools removed" tone="narrower" items={diff.toolsRemoved} keyOf={(t) => t.name}>
        {(t) => <code>{t.name}</code>}
      </Items>
      <Items title="Network narrowed" tone="narrower" items={diff.netNarrowed} keyOf={(n) => n.tool}>
        {(n) => (
          <>
            <code>{n.tool}</code>: {n.fromWords} → {n.toWords}
          </>
        )}
      </Items>
      <Items title="Limits lowered" tone="narrower" items={diff.limitsLowered} keyOf={limitKey}>
        {(l) => (
          <>
            <code>{l.tool}</code>: {LIMIT_NAMES[l.limit]} {limitWords(l.limit, l.from)} → {limitWords(l.limit, l.to)}
          </>
        )}
      </Items>
      <Items title="Kinds removed" tone="narrower" items={diff.kindsRemoved} keyOf={(k) => k.kind}>
        {kindItem}
      </Items>
      <Items title="Code changed" tone="neutral" items={diff.codeChanged} keyOf={(t) => t}>
        {(t) => (
          <>
            <code>{t}</code>: different code, scanned again for this version
          </>
        )}
      </Items>

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
