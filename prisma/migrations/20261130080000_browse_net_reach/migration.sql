-- The widest network any tool of a version may use ('none' for a prompt skill), for the browse
-- filter "network use". PostgreSQL generates it from the stored document, so no writer has to
-- keep it in step, and ANALYZE keeps statistics on it for the planner. schema.prisma declares it
-- as Unsupported("text"), which keeps it out of the Prisma client (nothing can write it).
ALTER TABLE "SkillVersion" ADD COLUMN "netReach" TEXT GENERATED ALWAYS AS (
    CASE
        WHEN coalesce("document" ->> 'runs', 'prompt') <> 'sandbox' THEN 'none'
        WHEN ("document" -> 'tools') @> '[{"net":"public"}]'::jsonb THEN 'public'
        WHEN ("document" -> 'tools') @> '[{"net":"openvibe-only"}]'::jsonb THEN 'openvibe-only'
        ELSE 'none'
    END
) STORED;
