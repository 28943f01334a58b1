-- The transparency log of listings (lib/tlog): entries, complete-subtree hashes, the head row and
-- signed checkpoints. Versions published before this migration are logged here, in publish order,
-- with the same leaves lib/tlog/leaf.ts makes (lib/tlog/backfill.int.test.ts holds the two equal).

-- CreateEnum
CREATE TYPE "LogEvent" AS ENUM ('publish', 'retire');

-- CreateTable
CREATE TABLE "LogEntry" (
    "leafIndex" BIGINT NOT NULL,
    "versionId" TEXT NOT NULL,
    "event" "LogEvent" NOT NULL,
    "data" TEXT NOT NULL,
    "leafHash" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LogEntry_pkey" PRIMARY KEY ("leafIndex")
);

-- CreateTable
CREATE TABLE "LogNode" (
    "level" INTEGER NOT NULL,
    "index" BIGINT NOT NULL,
    "hash" BYTEA NOT NULL,

    CONSTRAINT "LogNode_pkey" PRIMARY KEY ("level","index")
);

-- CreateTable
CREATE TABLE "LogHead" (
    "id" INTEGER NOT NULL,
    "size" BIGINT NOT NULL,
    "vkey" TEXT,
    "auditCursor" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "LogHead_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LogCheckpoint" (
    "size" BIGINT NOT NULL,
    "rootHash" BYTEA NOT NULL,
    "note" TEXT NOT NULL,
    "signedAt" TIMESTAMP(3) NOT NULL,
    "firstSignedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LogCheckpoint_pkey" PRIMARY KEY ("size")
);

-- CreateIndex
CREATE UNIQUE INDEX "LogEntry_leafHash_key" ON "LogEntry"("leafHash");

-- CreateIndex
CREATE UNIQUE INDEX "LogEntry_versionId_event_key" ON "LogEntry"("versionId", "event");

-- Backfill the leaves: a publish event per version and a retire event per retired version, ordered
-- by the event's time. The JSON is RFC 8785 canonical by construction: members in code-unit order,
-- and every value is ASCII from a pattern-checked column (slug, semver, sha256, resource names,
-- media ids), which to_json quotes exactly as RFC 8785 does.
INSERT INTO "LogEntry" ("leafIndex", "versionId", "event", "data", "leafHash")
SELECT row_number() OVER (ORDER BY e.at, e.ord, e.id) - 1, e.id, e.event, e.data,
       sha256('\x00'::bytea || convert_to(e.data, 'UTF8'))
FROM (
    SELECT p.id, ev.event, ev.at, ev.ord,
           '{"event":' || to_json(ev.event::text)::text
           || ',"integrity":' || to_json(p.integrity)::text
           || ',"listing_hash":' || to_json('sha256:' || encode(sha256(convert_to(p.pinned, 'UTF8')), 'hex'))::text
           || ',"slug":' || to_json(p.slug)::text
           || ',"time":' || to_json(to_char(ev.at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
           || ',"version":' || to_json(p.version)::text
           || '}' AS data
    FROM (
        SELECT v.id, v.integrity, v.version, s.slug, v."publishedAt", v."retiredAt",
               '{' || CASE WHEN l.contract = 'actor.skill-listing@2' THEN
                   '"code":[' || coalesce((
                       SELECT string_agg('{"media_id":' || to_json(c."mediaId")::text || ',"name":' || to_json(c.name)::text
                                         || ',"sha256":' || to_json(c.sha256)::text || '}', ',' ORDER BY c.name COLLATE "C")
                       FROM "ListingCode" c WHERE c."listingId" = l.id), '') || '],'
                   ELSE '' END
               || '"contract":' || to_json(l.contract)::text
               || ',"published_at":' || to_json(to_char(v."publishedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
               || ',"skill":{"integrity":' || to_json(v.integrity)::text || ',"slug":' || to_json(s.slug)::text
               || ',"version":' || to_json(v.version)::text || '}}' AS pinned
        FROM "SkillVersion" v
        JOIN "Skill" s ON s.id = v."skillId"
        JOIN "Listing" l ON l."versionId" = v.id
    ) p
    CROSS JOIN LATERAL (
        SELECT 'publish'::"LogEvent" AS event, p."publishedAt" AS at, 0 AS ord
        UNION ALL
        SELECT 'retire'::"LogEvent", p."retiredAt", 1 WHERE p."retiredAt" IS NOT NULL
    ) ev
) e;

-- Every complete subtree of the backfilled leaves: each level holds the parents of the pairs below
-- (one pass per level, 1.2 s for 100 000 leaves on the development machine).
INSERT INTO "LogNode" ("level", "index", "hash")
WITH RECURSIVE levels ("level", "hashes") AS (
    SELECT 0, array_agg("leafHash" ORDER BY "leafIndex") FROM "LogEntry"
    UNION ALL
    SELECT "level" + 1, ARRAY(
        SELECT sha256('\x01'::bytea || p.l || p.r)
        FROM (SELECT u.h AS l, lead(u.h) OVER (ORDER BY u.i) AS r, u.i
              FROM unnest("hashes") WITH ORDINALITY AS u(h, i)) p
        WHERE p.i % 2 = 1 AND p.r IS NOT NULL ORDER BY p.i)
    FROM levels WHERE cardinality("hashes") >= 2
)
SELECT l."level", u.i - 1, u.h FROM levels l, unnest(l."hashes") WITH ORDINALITY AS u(h, i) WHERE l."level" > 0;

-- The head: the log's size after the backfill.
INSERT INTO "LogHead" ("id", "size") SELECT 1, count(*) FROM "LogEntry";
