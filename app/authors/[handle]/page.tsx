import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { SkillCard } from "@/components/skill-card";
import { loadAuthorPage } from "@/lib/registry/authors";
import { Pager } from "../../_components/pager";
import browse from "../../_components/browse.module.css";

type Props = { params: Promise<{ handle: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

function pageOf(raw: string | string[] | undefined): number {
  const n = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isInteger(n) && n >= 1 && n <= 500 ? n : 1;
}

const load = cache((handle: string, page: number) => loadAuthorPage(handle, page));

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const author = await load((await params).handle, pageOf((await searchParams).page));
  return { title: author ? `${author.name} (@${author.handle})` : "Not found" };
}

export default async function AuthorPage({ params, searchParams }: Props) {
  const author = await load((await params).handle, pageOf((await searchParams).page));
  if (!author) notFound();
  const { result } = author;
  return (
    <>
      <p className="breadcrumb">
        <Link href="/">Browse</Link> / Authors / @{author.handle}
      </p>
      <h1 className={browse.title}>{author.name}</h1>
      <p className="muted">
        <span className="mono">@{author.handle}</span> · publishing since {dateFormat.format(new Date(author.joinedAt))} ·{" "}
        {result.total} skill{result.total === 1 ? "" : "s"}
      </p>
      <section aria-labelledby="author-skills">
        <h2 id="author-skills">Skills</h2>
        {result.skills.length === 0 ? (
          <div className="empty">
            <p>{result.total ? "There is no such page." : "No skills from this author yet."}</p>
          </div>
        ) : (
          <ul className={browse.grid}>
            {result.skills.map((s) => (
              <li key={s.slug}>
                <SkillCard skill={s} />
              </li>
            ))}
          </ul>
        )}
        <Pager query={result.query} pages={result.pages} hrefFor={(p) => `/authors/${author.handle}${p > 1 ? `?page=${p}` : ""}`} />
      </section>
    </>
  );
}
