import Link from "next/link";
import { SkillCard } from "@/components/skill-card";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { browseHref, DEFAULT_QUERY, MAX_PAGE, parseBrowseQuery, type BrowseQuery } from "@/lib/registry/browse-query";
import { searchSkills, type SearchResult } from "@/lib/registry/search";
import { BrowseFilters } from "./_components/browse-filters";
import { Pager } from "./_components/pager";
import styles from "./_components/browse.module.css";

export const metadata = { title: { absolute: "OpenVibe Skills — agent skills that run sandboxed" } };

type Outcome =
  | { kind: "ok"; result: SearchResult }
  | { kind: "invalid"; query: BrowseQuery; messages: string[] }
  | { kind: "failed"; query: BrowseQuery };

async function browse(params: Record<string, string | string[] | undefined>): Promise<Outcome> {
  let query: BrowseQuery;
  try {
    query = parseBrowseQuery(params);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const details = (err.details as { message: string }[] | undefined) ?? [];
    return { kind: "invalid", query: DEFAULT_QUERY, messages: details.map((d) => d.message) };
  }
  try {
    return { kind: "ok", result: await searchSkills(query) };
  } catch (err) {
    log.error("browse search failed", { err });
    return { kind: "failed", query };
  }
}

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const outcome = await browse(await searchParams);
  const query = outcome.kind === "ok" ? outcome.result.query : outcome.query;
  const filtered = query.runs || query.net || query.trust || query.status !== DEFAULT_QUERY.status;
  return (
    <>
      <section className="hero">
        <h1 className={styles.title}>{query.q ? `Skills matching “${query.q}”` : "Agent skills, run safely"}</h1>
        {query.q ? null : (
          <p className="lead">
            Skills teach an agent how to do something. When a skill carries code, it runs only in a sandbox on a Link —
            never on our servers and never with your secrets.
          </p>
        )}
      </section>
      <BrowseFilters query={query} />
      {outcome.kind === "invalid" ? (
        <div role="alert" className="form-error">
          <p>Some of the search options could not be read.</p>
          <ul>
            {outcome.messages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
          <p>
            <Link href="/">Start a new search</Link>
          </p>
        </div>
      ) : outcome.kind === "failed" ? (
        <div role="alert" className="form-error">
          <p>Searching is not working right now. Try again in a moment.</p>
        </div>
      ) : (
        <Results result={outcome.result} filtered={Boolean(filtered)} />
      )}
    </>
  );
}

function Results({ result, filtered }: { result: SearchResult; filtered: boolean }) {
  const { query, skills, total, totalCapped, pages, next } = result;
  const nextHref = next ? browseHref(query, { page: Math.min(query.page + 1, MAX_PAGE), after: next }) : null;
  const count = totalCapped ? `More than ${total.toLocaleString("en-GB")} skills` : `${total} skill${total === 1 ? "" : "s"}`;
  const title = query.q || filtered ? `${count} found` : "Skills";
  return (
    <section aria-labelledby="results-title">
      <div className={styles.summary}>
        <h2 id="results-title">{title}</h2>
        {total > 0 ? (
          <p className="muted">
            Page {query.after ? query.page : Math.min(query.page, pages)} of {pages}
            {totalCapped ? "+" : ""}
          </p>
        ) : null}
      </div>
      {skills.length === 0 ? (
        <div className="empty">
          {total > 0 ? (
            <p>
              There is no page {query.page}. <Link href={browseHref(query, { page: 1 })}>Go to the first page</Link>.
            </p>
          ) : query.q || filtered ? (
            <>
              <p>No published skill matches that search. Try fewer or different words, or fewer filters.</p>
              <p>
                <Link href="/">Show every skill</Link>
              </p>
            </>
          ) : (
            <>
              <p>No skills have been published yet.</p>
              <p>
                <Link href="/publish">Publish the first one</Link>
              </p>
            </>
          )}
        </div>
      ) : (
        <ul className={styles.grid}>
          {skills.map((s) => (
            <li key={s.slug}>
              <SkillCard skill={s} />
            </li>
          ))}
        </ul>
      )}
      <Pager query={query} pages={pages} nextHref={nextHref} />
      {totalCapped && query.page >= pages && !next ? (
        <p className="muted">Only the first {total.toLocaleString("en-GB")} are paged: add words or filters to see others.</p>
      ) : null}
    </section>
  );
}
