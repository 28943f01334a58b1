-- A Link's poll looks up the versions retired in the last minutes (lib/runs/link-api.ts): by this
-- index, not by the Link's history of jobs.
CREATE INDEX "SkillVersion_retiredAt_idx" ON "SkillVersion"("retiredAt");
