// Skill instructions as safe Markdown: a parsed tree rendered as React elements (lib/markdown),
// so raw HTML shows as text, scripts never run and every link is marked as leaving the site.
import { renderMarkdown } from "@/lib/markdown";
import styles from "./markdown.module.css";

export function Markdown({ source, headingOffset = 2 }: { source: string; headingOffset?: number }) {
  return (
    <div className={styles.markdown}>
      {renderMarkdown(source, {
        headingOffset,
        classes: { external: styles.external, table: styles.table, unsafe: styles.unsafe },
      })}
    </div>
  );
}
