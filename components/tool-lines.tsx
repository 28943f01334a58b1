// One compact line per tool on the skill card (ADR-060 "The person sees it"): its name, how far it
// may reach on the network in plain words, and what the scan said about that tool.
import type { CardTool, SkillCardData } from "@/lib/registry/search";
import badges from "./badges.module.css";
import { NetBadge } from "./net-badge";
import styles from "./tool-lines.module.css";

type Verdict = { words: string; tone: string | undefined };

function verdictOf(tool: CardTool, status: SkillCardData["status"]): Verdict {
  if (status === "scanning") return { words: "scan in progress", tone: badges.calm };
  const fail = tool.fail ?? 0;
  const flag = tool.flag ?? 0;
  if (fail > 0) return { words: "fails the scan", tone: badges.bad };
  if (flag > 0) return { words: `flagged: ${flag} finding${flag === 1 ? "" : "s"} to read`, tone: badges.warn };
  return { words: "nothing found", tone: badges.good };
}

export function ToolLines({
  tools,
  status,
  skillName,
}: {
  tools: CardTool[];
  status: SkillCardData["status"];
  skillName: string;
}) {
  return (
    <ul className={styles.lines} aria-label={`Tools of ${skillName}`}>
      {tools.map((t) => {
        const verdict = verdictOf(t, status);
        return (
          <li key={t.name} className={styles.line} data-tool={t.name}>
            <code className={styles.name}>{t.name}</code> <NetBadge net={t.net} />{" "}
            <span className={`${badges.badge} ${verdict.tone ?? ""}`}>
              <span className="visually-hidden">Scan: </span>
              {verdict.words}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
