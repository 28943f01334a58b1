// The scan's findings, grouped by the tool they are about: rule, where (resource and line, linked
// to that line of the code on the page) and the plain-words sentence.
import type { FindingView } from "@/lib/registry/skill-page";
import badges from "./badges.module.css";
import styles from "./findings-list.module.css";

/** The id of one line of a code resource on the skill page. */
export const lineAnchor = (resource: string, line: number) => `code-${resource.replace(/[^A-Za-z0-9_-]/g, "-")}-L${line}`;

export function FindingsList({ findings, headingLevel = 3 }: { findings: FindingView[]; headingLevel?: 3 | 4 }) {
  if (findings.length === 0) return <p className={styles.none}>The scan found nothing to report.</p>;
  const groups = new Map<string, FindingView[]>();
  for (const f of findings) {
    const key = f.tool ?? "";
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const Heading = `h${headingLevel}` as const;
  return (
    <div className={styles.groups}>
      {[...groups.entries()].map(([tool, list]) => (
        <section key={tool} aria-label={tool ? `Findings for tool ${tool}` : "Findings not about one tool"}>
          <Heading className={styles.tool}>
            {tool ? (
              <>
                Tool <code>{tool}</code>
              </>
            ) : (
              "Not about one tool"
            )}
          </Heading>
          <ul className={styles.list}>
            {list.map((f, i) => (
              <li key={`${f.rule}-${f.resource}-${f.line}-${f.column}-${i}`} className={styles.finding}>
                <p className={styles.head}>
                  <span className={`${badges.badge} ${f.severity === "fail" ? badges.bad : badges.warn}`}>
                    {f.severity === "fail" ? "Fails the scan" : "Flag"}
                  </span>
                  <code className={styles.rule}>{f.rule}</code>
                  <a href={`#${lineAnchor(f.resource, f.line)}`} className={styles.where}>
                    {f.resource} line {f.line}
                  </a>
                </p>
                <p className={styles.message}>{f.message}</p>
                {f.excerpt ? <pre className={styles.excerpt}>{f.excerpt}</pre> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
