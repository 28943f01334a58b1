-- Scoped personal API tokens: each token names what it may do, and may expire. Tokens made before
-- keep what they could do (read the account, publish and retire).
ALTER TABLE "ApiToken" ADD COLUMN "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "ApiToken" ADD COLUMN "expiresAt" TIMESTAMP(3);
UPDATE "ApiToken" SET "scopes" = ARRAY['skills:read', 'skills:publish']::TEXT[];
