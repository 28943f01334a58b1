import Link from "next/link";
import { db } from "@/lib/db";

export const metadata = { title: { absolute: "OpenVibe Skills — agent skills that run sandboxed" } };

const PAGE_SIZE = 20;

type LatestSkill = { slug: string; name: string; summary: string; version: string; runs: string; author: string; publishedAt: Date };

// The newest published version per skill. A later issue replaces this with the full browse in
// lib/registry; until then the scan bounds the work to a few pages of versions.
async function latestSkills(q: string): Promise<LatestSkill[]> {
  const versions = await db.skillVersion.findMany({
    where: {
      status: { in: ["passed", "flagged"] },
      retiredAt: null,
      ...(q
        ? {
            OR: [
              { name: { contains: q, mode: "insensitive" as const } },
              { summary: { contains: q, mode: "insensitive" as const } },
              { skill: { slug: { contains: q, mode: "insensitive" as const } } },
            ],
          }
        : {}),
    },
    orderBy: [{ publishedAt: "desc" }, { semverMajor: "desc" }, { semverMinor: "desc" }, { semverPatch: "desc" }],
    take: PAGE_SIZE * 3,
    select: {
      version: true,
      name: true,
      summary: true,
      runs: true,
      publishedAt: true,
      skill: { select: { slug: true, owner: { select: { handle: true } } } },
    },
  });
  const seen = new Set<string>();
  const skills: LatestSkill[] = [];
  for (const v of versions) {
    if (seen.has(v.skill.slug)) continue;
    seen.add(v.skill.slug);
    skills.push({ slug: v.skill.slug, name: v.name, summary: v.summary, version: v.version, runs: v.runs, author: v.skill.owner.handle, publishedAt: v.publishedAt });
    if (skills.length === PAGE_SIZE) break;
  }
  return skills;
}

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).q;
  const q = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, 100) ?? "";
  const skills = await latestSkills(q);
  return (
    <>
      <section className="hero">
        <h1>{q ? `Skills matching “${q}”` : "Agent skills, run safely"}</h1>
        {q ? (
          <p>
            <Link href="/">Clear the search</Link>
          </p>
        ) : (
          <p className="lead">
            Skills teach an agent how to do something. When a skill carries code, it runs only in a sandbox on a Link —
            never on our servers and never with your secrets.
          </p>
        )}
      </section>
      <section aria-labelledby="latest-title">
        <h2 id="latest-title">{q ? `${skills.length} found` : "Latest skills"}</h2>
        {skills.length === 0 ? (
          <div className="empty">
            <p>{q ? "No published skill matches that search. Try fewer or different words." : "No skills have been published yet."}</p>
            {q ? null : <p className="muted">Publishing opens soon; the first skills will appear here.</p>}
          </div>
        ) : (
          <ul className="card-list">
            {skills.map((s) => (
              <li key={s.slug} className="card">
                <h3 className="card-title">
                  {s.name} <span className="muted mono">{`${s.slug}@${s.version}`}</span>
                </h3>
                <p>{s.summary}</p>
                <p className="card-meta">
                  by <span className="mono">@{s.author}</span>
                  {s.runs === "sandbox" ? <span className="badge">runs code in a sandbox</span> : null}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
