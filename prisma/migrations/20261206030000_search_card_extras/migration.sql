-- A card's author, what its instructions ask, the scripts they would run outside the sandbox and
-- its tools' finding counts are copied into "SkillLatest" too, so a search or browse page is one
-- statement on one table. Triggers keep them: a scan verdict (asks, findings), a person's new
-- handle or name, a skill's new owner.
ALTER TABLE "SkillLatest" ADD COLUMN "authorHandle" TEXT NOT NULL DEFAULT '';
ALTER TABLE "SkillLatest" ADD COLUMN "authorName" TEXT NOT NULL DEFAULT '';
ALTER TABLE "SkillLatest" ADD COLUMN "asks" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "SkillLatest" ADD COLUMN "outsideScripts" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "SkillLatest" ADD COLUMN "toolFindings" JSONB NOT NULL DEFAULT '{}';

-- New columns go at the end, as CREATE OR REPLACE VIEW requires. Per tool of the version: how many
-- findings of each severity name it, as { tool: { fail, flag } }.
CREATE OR REPLACE VIEW "SkillLatestSource" AS
SELECT DISTINCT ON (v."skillId")
       v."skillId", v.id AS "versionId", s.slug, s."ownerId", s.trust, s."installsCount", v.version, v.name, v.summary,
       v.status, v.runs, coalesce(v."netReach", 'none') AS "netReach",
       coalesce((SELECT jsonb_agg(jsonb_build_object('name', t ->> 'name', 'net', coalesce(t ->> 'net', 'deny')))
                 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.document -> 'tools') = 'array'
                                                THEN v.document -> 'tools' ELSE '[]'::jsonb END) t), '[]'::jsonb) AS tools,
       v."publishedAt", coalesce(v."searchVector", ''::tsvector) AS "searchVector",
       setweight(to_tsvector('english', v.name), 'A') AS "nameVector",
       setweight(to_tsvector('english', v.name), 'A') || setweight(to_tsvector('english', v.summary), 'B') AS "headVector",
       u.handle AS "authorHandle", u.name AS "authorName", v.asks, v."outsideScripts",
       (SELECT coalesce(jsonb_object_agg(c.tool, jsonb_build_object('fail', c.fail, 'flag', c.flag)), '{}'::jsonb)
          FROM (SELECT f.tool, count(*) FILTER (WHERE f.severity = 'fail') AS fail,
                       count(*) FILTER (WHERE f.severity = 'flag') AS flag
                  FROM "ScanFinding" f JOIN "Listing" li ON li.id = f."listingId"
                 WHERE li."versionId" = v.id AND f.tool IS NOT NULL
                 GROUP BY f.tool) c) AS "toolFindings"
FROM "SkillVersion" v
JOIN "Skill" s ON s.id = v."skillId"
JOIN "User" u ON u.id = s."ownerId"
WHERE v."retiredAt" IS NULL
ORDER BY v."skillId", v."semverMajor" DESC, v."semverMinor" DESC, v."semverPatch" DESC,
         (v.prerelease IS NULL) DESC, coalesce(v.prerelease, '') DESC;

CREATE OR REPLACE FUNCTION skill_latest_refresh(ids TEXT[]) RETURNS void LANGUAGE plpgsql AS E'
BEGIN
    PERFORM 1 FROM "Skill" WHERE id = ANY(ids) ORDER BY id FOR UPDATE\073
    DELETE FROM "SkillLatest" WHERE "skillId" = ANY(ids)\073
    INSERT INTO "SkillLatest" ("skillId", "versionId", slug, "ownerId", trust, "installsCount", version, name, summary,
                               status, runs, "netReach", tools, "publishedAt", "searchVector", "nameVector", "headVector",
                               "authorHandle", "authorName", asks, "outsideScripts", "toolFindings")
    SELECT "skillId", "versionId", slug, "ownerId", trust, "installsCount", version, name, summary,
           status, runs, "netReach", tools, "publishedAt", "searchVector", "nameVector", "headVector",
           "authorHandle", "authorName", asks, "outsideScripts", "toolFindings"
    FROM "SkillLatestSource" WHERE "skillId" = ANY(ids)\073
END';

-- The audit's asks and outside scripts are now on the card too.
CREATE OR REPLACE FUNCTION skill_latest_after_version_update() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM skill_latest_refresh(ARRAY(
        SELECT n."skillId" FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.status, n."retiredAt", n.name, n.summary, n."searchVector", n."netReach", n."skillId", n.version, n.asks, n."outsideScripts")
              IS DISTINCT FROM (o.status, o."retiredAt", o.name, o.summary, o."searchVector", o."netReach", o."skillId", o.version, o.asks, o."outsideScripts")
        UNION
        SELECT o."skillId" FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o."skillId" <> n."skillId"))\073
    RETURN NULL\073
END';

-- A new owner brings their handle and name.
CREATE OR REPLACE FUNCTION skill_latest_after_skill_update() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    UPDATE "SkillLatest" l
    SET slug = n.slug, "ownerId" = n."ownerId", trust = n.trust, "installsCount" = n."installsCount",
        "authorHandle" = u.handle, "authorName" = u.name
    FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN "User" u ON u.id = n."ownerId"
    WHERE l."skillId" = n.id
      AND (n.slug, n."ownerId", n.trust, n."installsCount") IS DISTINCT FROM (o.slug, o."ownerId", o.trust, o."installsCount")\073
    RETURN NULL\073
END';

-- Findings are replaced by each scan verdict, and the counts on the cards of the skills concerned
-- follow. Both triggers name their transition table "changed": the rows added, or the rows removed.
CREATE FUNCTION skill_latest_after_finding_change() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM skill_latest_refresh(ARRAY(
        SELECT DISTINCT v."skillId" FROM (SELECT DISTINCT "listingId" FROM changed) f
        JOIN "Listing" li ON li.id = f."listingId" JOIN "SkillVersion" v ON v.id = li."versionId"))\073
    RETURN NULL\073
END';

CREATE TRIGGER "ScanFinding_latest_insert" AFTER INSERT ON "ScanFinding"
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION skill_latest_after_finding_change();
CREATE TRIGGER "ScanFinding_latest_delete" AFTER DELETE ON "ScanFinding"
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION skill_latest_after_finding_change();

-- A person's new handle or name shows on every card of theirs (balance updates do not fire it).
CREATE FUNCTION skill_latest_after_user_update() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    UPDATE "SkillLatest" SET "authorHandle" = NEW.handle, "authorName" = NEW.name WHERE "ownerId" = NEW.id\073
    RETURN NULL\073
END';

CREATE TRIGGER "User_latest_update" AFTER UPDATE OF handle, name ON "User"
    FOR EACH ROW WHEN (OLD.handle IS DISTINCT FROM NEW.handle OR OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION skill_latest_after_user_update();

-- Rows stored before this migration.
SELECT skill_latest_refresh(ARRAY(SELECT id FROM "Skill"));
