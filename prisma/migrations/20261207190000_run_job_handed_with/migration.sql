-- The job whose first result brought this one to its Link (a result's `next`): a repeat of that
-- result, sent because the Link never heard its answer, hands this job over again.
ALTER TABLE "RunJob" ADD COLUMN "handedWith" TEXT;

CREATE INDEX "RunJob_handedWith_idx" ON "RunJob"("handedWith");
