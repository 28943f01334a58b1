-- Issue 13: one spelling of `net`, a `cancelled` step, OpenVibe's own pool (operators approve pool
-- machines, projects choose whether their runs may go there), the Link's off switch that sticks,
-- jobs tied to their skill version, and the HO7 allowance kept as a running total.

-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('person', 'operator');

-- AlterEnum
ALTER TYPE "StepStatus" ADD VALUE 'cancelled';

-- AlterTable
ALTER TABLE "User" ADD COLUMN "role" "UserRole" NOT NULL DEFAULT 'person';

-- AlterTable
ALTER TABLE "Project" ADD COLUMN "allowPool" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "AgentAllowance" ADD COLUMN "spentDay" DATE,
ADD COLUMN "spentMicros" BIGINT NOT NULL DEFAULT 0;

-- `net` as documents spell it. The enum's labels already were those spellings.
ALTER TABLE "Step" ALTER COLUMN "net" TYPE TEXT USING "net"::text;
ALTER TABLE "Step" ADD CONSTRAINT "Step_net_check" CHECK ("net" IN ('deny', 'openvibe-only', 'public'));
ALTER TABLE "RunJob" ALTER COLUMN "net" TYPE TEXT USING "net"::text;
ALTER TABLE "RunJob" ADD CONSTRAINT "RunJob_net_check" CHECK ("net" IN ('deny', 'openvibe-only', 'public'));

-- DropEnum
DROP TYPE "NetPolicy";

-- A job names the version and tool it runs (its step says the same), so withdrawing a version's
-- jobs is one indexed query.
ALTER TABLE "RunJob" ADD COLUMN "versionId" TEXT,
ADD COLUMN "tool" TEXT,
ADD COLUMN "agentAlone" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "poolAllowed" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "cancelCode" TEXT;
UPDATE "RunJob" AS j SET "versionId" = s."versionId", "tool" = s."tool", "agentAlone" = (s."approval" = 'grant')
FROM "Step" AS s WHERE s."id" = j."stepId";
DELETE FROM "RunJob" WHERE "versionId" IS NULL;
ALTER TABLE "RunJob" ALTER COLUMN "versionId" SET NOT NULL,
ALTER COLUMN "tool" SET NOT NULL;

-- AlterTable
ALTER TABLE "Link" ADD COLUMN "runnerEpoch" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "remoteOffEpoch" INTEGER,
ADD COLUMN "poolApprovedAt" TIMESTAMP(3),
ADD COLUMN "poolApprovedBy" TEXT;

-- CreateIndex
CREATE INDEX "RunJob_linkId_createdAt_idx" ON "RunJob"("linkId", "createdAt");

-- CreateIndex
CREATE INDEX "RunJob_versionId_state_idx" ON "RunJob"("versionId", "state");

-- AddForeignKey
ALTER TABLE "RunJob" ADD CONSTRAINT "RunJob_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "SkillVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A prompt actor.skill@2 is listed as actor.skill-listing@2 (listings follow their document's major).
UPDATE "Listing" AS l SET "contract" = 'actor.skill-listing@2'
FROM "SkillVersion" AS v WHERE v."id" = l."versionId" AND v."contract" = 'actor.skill@2';
