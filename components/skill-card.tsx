// The skill card of browse, author and dashboard pages: what the skill is, who made it, how far
// it is trusted and used, what the scan said, and for code skills where the code runs and how far
// each tool may reach on the network (ADR-060 "The person sees it").
import Link from "next/link";
import type { SkillCardData } from "@/lib/registry/search";
import { SANDBOX_LINE, asksLine } from "@/lib/registry/plain-words";
import styles from "./skill-card.module.css";
import badges from "./badges.module.css";
import { OutsideScriptsLine } from "./outside-scripts";
import { ToolLines } from "./tool-lines";

const STATUS: Record<SkillCardData["status"], { words: string; tone: string | undefined }> = {
  passed: { words: "Scan passed", tone: badges.good },
  flagged: { words: "Flagged by the scan", tone: badges.warn },
  failed: { words: "Scan failed", tone: badges.bad },
  scanning: { words: "Scan in progress", tone: badges.calm },
};

export function ScanBadge({ status }: { status: SkillCardData["status"] }) {
  const s = STATUS[status];
  return <span className={`${badges.badge} ${s.tone ?? ""}`}>{s.words}</span>;
}

export function TrustBadge({ trust }: { trust: SkillCardData["trust"] }) {
  return trust === "first_party" ? (
    <span className={`${badges.badge} ${badges.good}`} title="Published by OpenVibe">
      First-party
    </span>
  ) : (
    <span className={`${badges.badge} ${badges.calm}`} title="Published by a community author">
      Community
    </span>
  );
}

const count = new Intl.NumberFormat("en-GB");
export const installsWords = (n: number) => `${count.format(n)} install${n === 1 ? "" : "s"}`;

export function SkillCard({ skill, headingLevel = 3 }: { skill: SkillCardData; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className={styles.card} aria-labelledby={`card-${skill.slug}`}>
      <Heading className={styles.title} id={`card-${skill.slug}`}>
        <Link href={`/skills/${skill.slug}`} className={styles.link}>
          {skill.name}
        </Link>{" "}
        <span className={styles.ref}>
          {skill.slug}@{skill.version}
        </span>
      </Heading>
      <p className={styles.summary}>{skill.summary}</p>
      {skill.runs === "sandbox" ? (
        <div className={styles.sandbox}>
          <p className={styles.sandboxLine}>{SANDBOX_LINE}</p>
          <ToolLines tools={skill.tools} status={skill.status} skillName={skill.name} />
        </div>
      ) : skill.asks.length || skill.outsideScripts.length ? null : (
        <p className={styles.promptLine}>Instructions only: no code runs.</p>
      )}
      {skill.asks.length ? (
        <p className={styles.promptLine} data-testid="asks">
          {asksLine(skill.asks)}
        </p>
      ) : null}
      <OutsideScriptsLine names={skill.outsideScripts} className={styles.promptLine} />
      <p className={styles.meta}>
        <span>
          by <Link href={`/authors/${skill.author.handle}`}>@{skill.author.handle}</Link>
        </span>
        <TrustBadge trust={skill.trust} />
        <span>{installsWords(skill.installs)}</span>
        <ScanBadge status={skill.status} />
      </p>
    </article>
  );
}
