-- What a version's instructions ask the agent to do, in plain words, and the bundled scripts they
-- would run outside the sandbox (written by the scan job with the verdict).
ALTER TABLE "SkillVersion" ADD COLUMN "asks" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "SkillVersion" ADD COLUMN "outsideScripts" TEXT[] DEFAULT ARRAY[]::TEXT[];
