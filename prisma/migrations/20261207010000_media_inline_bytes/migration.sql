-- A call's job.json lives in its MediaObject row, written by the submission's one statement: no file
-- to write, lock or clean up on the hot path. Larger objects stay in the store.
ALTER TABLE "MediaObject" ADD COLUMN "inlineBytes" BYTEA;
ALTER TABLE "MediaObject" ADD CONSTRAINT "MediaObject_inlineBytes_size"
  CHECK ("inlineBytes" IS NULL OR (octet_length("inlineBytes") = "sizeBytes" AND "sizeBytes" <= 262144));
