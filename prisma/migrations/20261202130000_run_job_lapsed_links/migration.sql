-- The Links that went silent while running a job (their running lease ran out). The job is never
-- placed on one of them again, and a result one of them sends later is refused: it is no longer its.
-- AlterTable
ALTER TABLE "RunJob" ADD COLUMN "lapsedLinkIds" TEXT[] DEFAULT ARRAY[]::TEXT[];
