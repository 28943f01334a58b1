-- Issue 22: exactly once. A step remembers the Idempotency-Key of the call that made it, the steps
-- outbox holds grant calls until their job is submitted, public writes keep their first answer for
-- 24 h per principal, and the approval sweep finds due steps with an index.

-- AlterTable
ALTER TABLE "Step" ADD COLUMN "idempotencyKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Step_agentId_idempotencyKey_key" ON "Step"("agentId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "Step_status_expiresAt_idx" ON "Step"("status", "expiresAt");

-- CreateTable
CREATE TABLE "StepOutbox" (
    "stepId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StepOutbox_pkey" PRIMARY KEY ("stepId")
);

-- CreateIndex
CREATE INDEX "StepOutbox_createdAt_idx" ON "StepOutbox"("createdAt");

-- AddForeignKey
ALTER TABLE "StepOutbox" ADD CONSTRAINT "StepOutbox_stepId_fkey" FOREIGN KEY ("stepId") REFERENCES "Step"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "status" INTEGER,
    "contentType" TEXT,
    "body" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "IdempotencyKey_scope_key_key" ON "IdempotencyKey"("scope", "key");

-- CreateIndex
CREATE INDEX "IdempotencyKey_expiresAt_idx" ON "IdempotencyKey"("expiresAt");
