-- The scanner whose verdict a version carries, so a newer scanner rescans every stored version;
-- and on an install, why such a rescan made its version's verdict worse (shown on My skills).
ALTER TABLE "SkillVersion" ADD COLUMN "scannerVersion" TEXT;
ALTER TABLE "Install" ADD COLUMN "rescanNotice" JSONB;
