-- Dispatch latency (created to placed) over the jobs placed in the last minutes, read by
-- /api/metrics at scrape time: a range on placedAt instead of a scan of every job.
-- CreateIndex
CREATE INDEX "RunJob_placedAt_idx" ON "RunJob"("placedAt");
