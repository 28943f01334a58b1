// Page links for a result list: previous, a few numbers around the current page, next.
import Link from "next/link";
import { browseHref, type BrowseQuery } from "@/lib/registry/browse-query";
import styles from "./browse.module.css";

export function Pager({ query, pages, hrefFor = (page) => browseHref(query, { page }) }: {
  query: BrowseQuery;
  pages: number;
  hrefFor?: (page: number) => string;
}) {
  if (pages <= 1) return null;
  const current = Math.min(query.page, pages);
  const numbers = [...new Set([1, current - 1, current, current + 1, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b);
  return (
    <nav aria-label="Pages" className={styles.pager}>
      {current > 1 ? (
        <Link href={hrefFor(current - 1)} className="button" rel="prev">
          ← Previous
        </Link>
      ) : null}
      <ol className={styles.pageNumbers}>
        {numbers.map((n, i) => (
          <li key={n}>
            {i > 0 && n - numbers[i - 1]! > 1 ? <span className={styles.gap} aria-hidden="true">…</span> : null}
            {n === current ? (
              <span aria-current="page" className={styles.currentPage}>
                {n}
              </span>
            ) : (
              <Link href={hrefFor(n)} aria-label={`Page ${n}`}>
                {n}
              </Link>
            )}
          </li>
        ))}
      </ol>
      {current < pages ? (
        <Link href={hrefFor(current + 1)} className="button" rel="next">
          Next →
        </Link>
      ) : null}
    </nav>
  );
}
