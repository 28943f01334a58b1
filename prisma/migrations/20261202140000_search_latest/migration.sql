-- Browse and search read one row per skill: its latest live version (highest semver precedence,
-- not retired), with what a card shows, every sort and filter key, and the version's weighted
-- search vector (name A, summary B, instructions C) beside two small ones (the name, the name and
-- summary) that tell which field a match is in. Triggers keep it in the same transaction as
-- every write to SkillVersion and Skill (publish, retire, scan verdict, installs), whoever writes.
-- schema.prisma declares it read-only in practice: nothing but these triggers writes it.
CREATE TABLE "SkillLatest" (
    "skillId"       TEXT NOT NULL,
    "versionId"     TEXT NOT NULL,
    "slug"          TEXT NOT NULL,
    "ownerId"       TEXT NOT NULL,
    "trust"         "SkillTrust" NOT NULL,
    "installsCount" INTEGER NOT NULL,
    "version"       TEXT NOT NULL,
    "name"          TEXT NOT NULL,
    "summary"       TEXT NOT NULL,
    "status"        "VersionStatus" NOT NULL,
    "runs"          "SkillRuns" NOT NULL,
    "netReach"      TEXT NOT NULL,
    "tools"         JSONB NOT NULL,
    "publishedAt"   TIMESTAMP(3) NOT NULL,
    "searchVector"  tsvector NOT NULL,
    "nameVector"    tsvector NOT NULL,
    "headVector"    tsvector NOT NULL,
    CONSTRAINT "SkillLatest_pkey" PRIMARY KEY ("skillId"),
    CONSTRAINT "SkillLatest_skillId_fkey" FOREIGN KEY ("skillId") REFERENCES "Skill"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE UNIQUE INDEX "SkillLatest_versionId_key" ON "SkillLatest"("versionId");
-- Without fastupdate: a search would otherwise read the whole pending list of recent writes.
CREATE INDEX "SkillLatest_searchVector_idx" ON "SkillLatest" USING GIN ("searchVector") WITH (fastupdate = off);
CREATE INDEX "SkillLatest_nameVector_idx" ON "SkillLatest" USING GIN ("nameVector") WITH (fastupdate = off);
CREATE INDEX "SkillLatest_headVector_idx" ON "SkillLatest" USING GIN ("headVector") WITH (fastupdate = off);
-- One index per sort (its keyset order exactly), and per sort under the selective filters.
CREATE INDEX "SkillLatest_installs_idx" ON "SkillLatest"("installsCount" DESC, "publishedAt" DESC, "slug" DESC);
CREATE INDEX "SkillLatest_newest_idx" ON "SkillLatest"("publishedAt" DESC, "slug" DESC);
CREATE INDEX "SkillLatest_status_installs_idx" ON "SkillLatest"("status", "installsCount" DESC, "publishedAt" DESC, "slug" DESC);
CREATE INDEX "SkillLatest_status_newest_idx" ON "SkillLatest"("status", "publishedAt" DESC, "slug" DESC);
CREATE INDEX "SkillLatest_trust_installs_idx" ON "SkillLatest"("trust", "installsCount" DESC, "publishedAt" DESC, "slug" DESC);
CREATE INDEX "SkillLatest_trust_newest_idx" ON "SkillLatest"("trust", "publishedAt" DESC, "slug" DESC);
CREATE INDEX "SkillLatest_netReach_installs_idx" ON "SkillLatest"("netReach", "installsCount" DESC, "publishedAt" DESC, "slug" DESC);
CREATE INDEX "SkillLatest_ownerId_newest_idx" ON "SkillLatest"("ownerId", "publishedAt" DESC, "slug" DESC);

-- The row each skill should have, by semver precedence (a release outranks its pre-releases,
-- pre-releases of one x.y.z compare as text). A filter on "skillId" reaches inside the DISTINCT ON.
CREATE VIEW "SkillLatestSource" AS
SELECT DISTINCT ON (v."skillId")
       v."skillId", v.id AS "versionId", s.slug, s."ownerId", s.trust, s."installsCount", v.version, v.name, v.summary,
       v.status, v.runs, coalesce(v."netReach", 'none') AS "netReach",
       coalesce((SELECT jsonb_agg(jsonb_build_object('name', t ->> 'name', 'net', coalesce(t ->> 'net', 'deny')))
                 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.document -> 'tools') = 'array'
                                                THEN v.document -> 'tools' ELSE '[]'::jsonb END) t), '[]'::jsonb) AS tools,
       v."publishedAt", coalesce(v."searchVector", ''::tsvector) AS "searchVector",
       setweight(to_tsvector('english', v.name), 'A') AS "nameVector",
       setweight(to_tsvector('english', v.name), 'A') || setweight(to_tsvector('english', v.summary), 'B') AS "headVector"
FROM "SkillVersion" v
JOIN "Skill" s ON s.id = v."skillId"
WHERE v."retiredAt" IS NULL
ORDER BY v."skillId", v."semverMajor" DESC, v."semverMinor" DESC, v."semverPatch" DESC,
         (v.prerelease IS NULL) DESC, coalesce(v.prerelease, '') DESC;

-- The function bodies below are E'' strings with \073 for each semicolon: the migrator runs a
-- script statement by statement, split at every semicolon character, quoted or not.

-- Recomputes the rows of the given skills. The skills' rows are locked first, so two writers of
-- one skill take turns and the second one's later statements see what the first committed.
-- "= ANY(ids)" (not IN a subquery) is what reaches inside the view's DISTINCT ON.
CREATE FUNCTION skill_latest_refresh(ids TEXT[]) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
    PERFORM 1 FROM "Skill" WHERE id = ANY(ids) ORDER BY id FOR UPDATE\073
    DELETE FROM "SkillLatest" WHERE "skillId" = ANY(ids)\073
    INSERT INTO "SkillLatest" ("skillId", "versionId", slug, "ownerId", trust, "installsCount", version, name, summary,
                               status, runs, "netReach", tools, "publishedAt", "searchVector", "nameVector", "headVector")
    SELECT "skillId", "versionId", slug, "ownerId", trust, "installsCount", version, name, summary,
           status, runs, "netReach", tools, "publishedAt", "searchVector", "nameVector", "headVector"
    FROM "SkillLatestSource" WHERE "skillId" = ANY(ids)\073
END';

CREATE FUNCTION skill_latest_after_version_insert() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM skill_latest_refresh(ARRAY(SELECT DISTINCT "skillId" FROM new_rows))\073
    RETURN NULL\073
END';

-- Only changes a card or the choice of latest depends on (a backfill of rendered HTML is not one).
CREATE FUNCTION skill_latest_after_version_update() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM skill_latest_refresh(ARRAY(
        SELECT n."skillId" FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.status, n."retiredAt", n.name, n.summary, n."searchVector", n."netReach", n."skillId", n.version)
              IS DISTINCT FROM (o.status, o."retiredAt", o.name, o.summary, o."searchVector", o."netReach", o."skillId", o.version)
        UNION
        SELECT o."skillId" FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o."skillId" <> n."skillId"))\073
    RETURN NULL\073
END';

CREATE FUNCTION skill_latest_after_version_delete() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM skill_latest_refresh(ARRAY(SELECT DISTINCT "skillId" FROM old_rows))\073
    RETURN NULL\073
END';

CREATE TRIGGER "SkillVersion_latest_insert" AFTER INSERT ON "SkillVersion"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION skill_latest_after_version_insert();
CREATE TRIGGER "SkillVersion_latest_update" AFTER UPDATE ON "SkillVersion"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION skill_latest_after_version_update();
CREATE TRIGGER "SkillVersion_latest_delete" AFTER DELETE ON "SkillVersion"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION skill_latest_after_version_delete();

-- The skill's own columns (installs, trust, slug, owner) are copied as they change.
CREATE FUNCTION skill_latest_after_skill_update() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    UPDATE "SkillLatest" l
    SET slug = n.slug, "ownerId" = n."ownerId", trust = n.trust, "installsCount" = n."installsCount"
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE l."skillId" = n.id
      AND (n.slug, n."ownerId", n.trust, n."installsCount") IS DISTINCT FROM (o.slug, o."ownerId", o.trust, o."installsCount")\073
    RETURN NULL\073
END';

CREATE TRIGGER "Skill_latest_update" AFTER UPDATE ON "Skill"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION skill_latest_after_skill_update();

-- The skills words match, read through the GIN index whatever the planner would guess: its
-- estimate for several words multiplies their frequencies, and when they rarely meet it would walk
-- a sort index past every skill. A bitmap scan costs what the matches cost. Up to `cap` rows, each
-- with its sort key and relevance tier (3 name, 2 summary, 1 instructions, 0 when not ranked).
-- The status is compared as text so that only the GIN index can drive the scan.
CREATE FUNCTION skill_latest_matches(q tsquery, tiers BOOLEAN, statuses TEXT[], want_runs "SkillRuns", want_trust "SkillTrust",
                                     want_net TEXT, want_owner TEXT, cap INT)
RETURNS TABLE ("skillId" TEXT, tier INT, "installsCount" INT, "publishedAt" TIMESTAMP(3), slug TEXT)
LANGUAGE sql STABLE
SET enable_seqscan = off SET enable_indexscan = off SET enable_indexonlyscan = off
AS 'SELECT l."skillId",
           CASE WHEN NOT tiers THEN 0 WHEN l."nameVector" @@ q THEN 3 WHEN l."headVector" @@ q THEN 2 ELSE 1 END,
           l."installsCount", l."publishedAt", l.slug
    FROM "SkillLatest" l
    WHERE l."searchVector" @@ q AND l.status::text = ANY(statuses)
      AND (want_runs IS NULL OR l.runs = want_runs) AND (want_trust IS NULL OR l.trust = want_trust)
      AND (want_net IS NULL OR l."netReach" = want_net) AND (want_owner IS NULL OR l."ownerId" = want_owner)
    LIMIT cap';

-- Versions published before this migration.
SELECT skill_latest_refresh(ARRAY(SELECT id FROM "Skill"));

-- The old search path's index: search no longer reads SkillVersion by its vector.
DROP INDEX "SkillVersion_searchVector_idx";
