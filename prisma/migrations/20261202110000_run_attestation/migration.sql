-- Signed results (issue 15): the Link's verified statement and signature, stored with the run.
ALTER TABLE "RunJob" ADD COLUMN "attestation" JSONB;
