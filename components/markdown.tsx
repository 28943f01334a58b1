// Skill instructions and Markdown resources as the sanitised HTML stored at publish
// (lib/markdown renders it once: raw HTML escaped, only web and email links, images never loaded).
// A version published before that HTML existed shows its source as plain text until the backfill.
import styles from "./markdown.module.css";

export function Markdown({ html, source }: { html: string | null; source: string }) {
  if (html === null) {
    return (
      <pre className={styles.plain} tabIndex={0}>
        {source}
      </pre>
    );
  }
  // Safe by construction: every byte of `html` came from lib/markdown's render rules.
  return <div className={styles.markdown} dangerouslySetInnerHTML={{ __html: html }} />;
}
