// A large, realistic-looking catalogue made in a few SQL statements, for the browse benchmark and
// the search tests: authors, skills with 1-3 versions each (some retired, some failed or flagged),
// prompt and sandbox skills whose tools use each network policy, listings, pinned code, findings.
// Never run it against a real catalogue: callers pass a throw-away database.
import "server-only";
import { db } from "../lib/db";

const WORDS = [
  "csv", "json", "yaml", "markdown", "release", "notes", "commit", "message", "review", "checklist",
  "convert", "units", "currency", "weather", "status", "invoice", "summary", "translate", "diff", "schema",
  "validate", "slug", "title", "changelog", "calendar", "timezone", "regex", "sql", "query", "report",
  "statistics", "chart", "table", "email", "draft", "polite", "bug", "triage", "label", "priority",
];

export type SyntheticReport = { authors: number; skills: number; versions: number };

/** Adds `skills` synthetic skills (slugs `bench-skill-<n>`) by `authors` synthetic authors. */
export async function insertSyntheticSkills(skills: number, authors = 50): Promise<SyntheticReport> {
  await db.$transaction(
    async (tx) => {
      // One statement writes every version (and, by trigger, every search row): longer than the
      // app's statement timeout at 100 000 skills, and this is a throw-away database.
      await tx.$executeRaw`SET LOCAL statement_timeout = 0`;
      await tx.$executeRaw`
        INSERT INTO "User" (id, email, handle, name, "updatedAt")
        SELECT 'syn_u_' || g, 'author' || g || '@synthetic.test', 'synthetic-' || g, 'Synthetic Author ' || g, now()
        FROM generate_series(1, ${authors}::int) g`;
      await tx.$executeRaw`
        INSERT INTO "Skill" (id, slug, "ownerId", trust, "installsCount")
        SELECT 'syn_s_' || g, 'bench-skill-' || g, 'syn_u_' || (g % ${authors}::int + 1),
               (CASE WHEN g % 10 = 0 THEN 'first_party' ELSE 'community' END)::"SkillTrust", (g * 7919) % 20000
        FROM generate_series(1, ${skills}::int) g`;
      // Words picked by multiplicative hashing, so names, summaries and instructions overlap the
      // way a real catalogue's do and a search matches a realistic share of it.
      await tx.$executeRaw`
        WITH w AS (SELECT ${WORDS}::text[] AS words, ${WORDS.length}::int AS n),
        src AS (
          SELECT g, k,
                 (CASE WHEN g % 3 = 0 THEN 'prompt' ELSE 'sandbox' END) AS runs,
                 (CASE WHEN g % 7 = 0 THEN 'public' WHEN g % 5 = 0 THEN 'openvibe-only' ELSE 'deny' END) AS net,
                 initcap(words[(g * 7) % n + 1] || ' ' || words[(g * 13 + 5) % n + 1]) || ' ' || g AS name,
                 'Helps with ' || words[(g * 17 + 3) % n + 1] || ' and ' || words[(g * 19 + 11) % n + 1]
                   || ' for ' || words[(g * 23 + 7) % n + 1] || ' work.' AS summary,
                 '# How to use' || chr(10) || chr(10) || 'Use this skill for ' || words[(g * 29 + 1) % n + 1] || ', '
                   || words[(g * 31 + 2) % n + 1] || ' and ' || words[(g * 37 + 4) % n + 1] || '. '
                   || repeat('Read the ' || words[(g * 41 + 6) % n + 1] || ' carefully and answer plainly. ', 12) AS instructions
          FROM w, generate_series(1, ${skills}::int) g, generate_series(0, g % 3) k
        )
        INSERT INTO "SkillVersion" (id, "skillId", version, "semverMajor", "semverMinor", "semverPatch", prerelease,
          contract, document, integrity, runs, name, summary, instructions, status, "publishedAt", "retiredAt")
        SELECT 'syn_v_' || g || '_' || k, 'syn_s_' || g, '1.' || k || '.0', 1, k, 0, NULL,
          'actor.skill@2',
          jsonb_build_object(
            'contract', 'actor.skill@2', 'slug', 'bench-skill-' || g, 'version', '1.' || k || '.0',
            'name', name, 'summary', summary, 'instructions', instructions, 'runs', runs,
            'resources', CASE WHEN runs = 'sandbox' THEN jsonb_build_array(jsonb_build_object(
              'name', 'tools/main.js', 'media_type', 'text/javascript',
              'text', '"use strict";' || chr(10) || 'process.stdin.on("data", (d) => process.stdout.write(d));' || chr(10)))
              ELSE '[]'::jsonb END,
            'tools', CASE WHEN runs = 'sandbox' THEN jsonb_build_array(jsonb_build_object(
              'name', 'run_' || (g % 9), 'description', 'Does the ' || summary, 'language', 'javascript',
              'entry', 'tools/main.js', 'net', net,
              'args', jsonb_build_object('type', 'object', 'additionalProperties', false, 'required', jsonb_build_array('text'),
                'properties', jsonb_build_object('text', jsonb_build_object('type', 'string', 'maxLength', 200))),
              'limits', jsonb_build_object('wall_ms', 5000, 'mem_bytes', 67108864))) ELSE NULL END,
            'requires', jsonb_build_object('kinds', CASE WHEN runs = 'sandbox' THEN jsonb_build_array('skill.run') ELSE '[]'::jsonb END),
            'integrity', 'sha256:' || md5(g || '/' || k) || md5(k || '/' || g)),
          'sha256:' || md5(g || '/' || k) || md5(k || '/' || g),
          runs::"SkillRuns", name, summary, instructions,
          (CASE WHEN g % 31 = 0 THEN 'failed' WHEN g % 11 = 0 THEN 'flagged' WHEN g % 97 = 0 THEN 'scanning' ELSE 'passed' END)::"VersionStatus",
          now() - make_interval(mins => g * 3 + (2 - k) * 1440),
          CASE WHEN k > 0 AND g % 13 = 0 THEN now() ELSE NULL END
        FROM src`;
      await tx.$executeRaw`
        INSERT INTO "Listing" (id, "versionId", contract, "scannedAt")
        SELECT 'syn_l_' || substr(v.id, 7), v.id,
               CASE WHEN v.runs = 'sandbox' THEN 'actor.skill-listing@2' ELSE 'actor.skill-listing@1' END, v."publishedAt"
        FROM "SkillVersion" v WHERE v.id LIKE 'syn_v_%'`;
      await tx.$executeRaw`
        INSERT INTO "MediaObject" (id, sha256, "sizeBytes", "mediaType", "storageKey")
        VALUES ('med_SYNTHETIC', repeat('ab', 32), 70, 'text/javascript', 'synthetic')`;
      await tx.$executeRaw`
        INSERT INTO "ListingCode" (id, "listingId", name, "mediaId", sha256, "sizeBytes")
        SELECT 'syn_c_' || substr(v.id, 7), 'syn_l_' || substr(v.id, 7), 'tools/main.js', 'med_SYNTHETIC', repeat('ab', 32), 70
        FROM "SkillVersion" v WHERE v.id LIKE 'syn_v_%' AND v.runs = 'sandbox'`;
      await tx.$executeRaw`
        INSERT INTO "ScanFinding" (id, "listingId", "ruleId", severity, tool, resource, line, "column", excerpt, message)
        SELECT 'syn_f_' || substr(v.id, 7), 'syn_l_' || substr(v.id, 7),
               CASE WHEN v.status = 'failed' THEN 'env.read' ELSE 'net.use' END,
               (CASE WHEN v.status = 'failed' THEN 'fail' ELSE 'flag' END)::"FindingSeverity",
               v.document -> 'tools' -> 0 ->> 'name', 'tools/main.js', 2, 1, 'process.stdin.on(…)',
               CASE WHEN v.status = 'failed' THEN 'reads your environment variables, where secrets live'
                    ELSE 'reaches the network' END
        FROM "SkillVersion" v WHERE v.id LIKE 'syn_v_%' AND v.status IN ('failed', 'flagged') AND v.runs = 'sandbox'`;
    },
    { timeout: 1_800_000 },
  );
  // As autovacuum would leave a catalogue that has been live a while: statistics and visibility map.
  await db.$executeRaw`VACUUM ANALYZE`;
  const [counts] = await db.$queryRaw<{ versions: bigint }[]>`
    SELECT count(*) AS versions FROM "SkillVersion" WHERE id LIKE 'syn_v_%'`;
  return { authors, skills, versions: Number(counts?.versions ?? 0) };
}

export const SYNTHETIC_WORDS: readonly string[] = WORDS;
