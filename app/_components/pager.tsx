// Page links for a result list: previous, a few numbers around the current page, next. "Next"
// follows the keyset link when the list gives one (it goes on past the counted pages, at no cost).
import Link from "next/link";
import { browseHref, type BrowseQuery } from "@/lib/registry/browse-query";
import styles from "./browse.module.css";

export function Pager({ query, pages, hrefFor = (page) => browseHref(query, { page }), nextHref }: {
  query: BrowseQuery;
  pages: number;
  hrefFor?: (page: number) => string;
  nextHref?: string | null;
}) {
  if (pages <= 1 && !nextHref) return null;
  const current = nextHref === undefined ? Math.min(query.page, pages) : query.page;
  const next = nextHref === undefined ? (current < pages ? hrefFor(current + 1) : null) : nextHref;
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
      {next ? (
        <Link href={next} className="button" rel="next">
          Next →
        </Link>
      ) : null}
    </nav>
  );
}
