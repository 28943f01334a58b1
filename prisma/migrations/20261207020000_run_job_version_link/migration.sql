-- A Link's poll asks which retired or failed versions it was handed lately: one probe per such
-- version instead of a scan of every job the Link ran in the last 15 minutes.
CREATE INDEX "RunJob_versionId_linkId_createdAt_idx" ON "RunJob"("versionId", "linkId", "createdAt");
