-- A person's balance and what their unsettled runs hold are columns on "User", kept by a trigger in
-- the same transaction as every ledger entry, whoever writes it, so a submission reads one row
-- instead of summing the ledger. The ledger stays the record: `npm run ledger:check` compares.
ALTER TABLE "User" ADD COLUMN "balanceMicros" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "User" ADD COLUMN "heldMicros" BIGINT NOT NULL DEFAULT 0;

-- Backfill from the ledger: the balance is the sum, the held amount is every run hold
-- ("run:<job>:1") that has no settlement ("run:<job>:2") yet.
UPDATE "User" u SET "balanceMicros" = s.total
FROM (SELECT "userId", SUM("amountMicros") AS total FROM "LedgerEntry" GROUP BY 1) s
WHERE s."userId" = u.id;

UPDATE "User" u SET "heldMicros" = s.held
FROM (SELECT h."userId", SUM(-h."amountMicros") AS held FROM "LedgerEntry" h
      WHERE h.kind = 'charge' AND h."idempotencyKey" LIKE 'run:%:1'
        AND NOT EXISTS (SELECT 1 FROM "LedgerEntry" r WHERE r."idempotencyKey" = left(h."idempotencyKey", -1) || '2')
      GROUP BY 1) s
WHERE s."userId" = u.id;

ALTER TABLE "User" ADD CONSTRAINT "User_balanceMicros_check" CHECK ("balanceMicros" >= 0);
ALTER TABLE "User" ADD CONSTRAINT "User_heldMicros_check" CHECK ("heldMicros" >= 0);

-- The function bodies are E'' strings with \073 for each semicolon (the migrator splits a script
-- at every semicolon character).

-- A hold adds to the held amount, its settlement takes the whole hold off again (the refund
-- itself goes back to the balance). One row updated per entry, whatever the ledger's length.
CREATE FUNCTION ledger_entry_apply() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
    held_change BIGINT := 0\073
BEGIN
    IF NEW.kind = ''charge'' AND NEW."idempotencyKey" LIKE ''run:%:1'' THEN
        held_change := -NEW."amountMicros"\073
    ELSIF NEW.kind = ''refund'' AND NEW."idempotencyKey" LIKE ''run:%:2'' THEN
        SELECT h."amountMicros" INTO held_change FROM "LedgerEntry" h
         WHERE h."idempotencyKey" = left(NEW."idempotencyKey", -1) || ''1'' AND h."userId" = NEW."userId"\073
        held_change := coalesce(held_change, 0)\073
    END IF\073
    UPDATE "User" SET "balanceMicros" = "balanceMicros" + NEW."amountMicros",
                      "heldMicros" = "heldMicros" + held_change
     WHERE id = NEW."userId"\073
    RETURN NULL\073
END';

CREATE TRIGGER "LedgerEntry_apply" AFTER INSERT ON "LedgerEntry"
FOR EACH ROW EXECUTE FUNCTION ledger_entry_apply();

-- Append-only: what an entry says about money never changes once written.
CREATE FUNCTION ledger_entry_frozen() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    RAISE EXCEPTION ''LedgerEntry is append-only: its amount, kind, person and key never change''\073
END';

CREATE TRIGGER "LedgerEntry_frozen" BEFORE UPDATE OF "amountMicros", "kind", "userId", "idempotencyKey" ON "LedgerEntry"
FOR EACH ROW EXECUTE FUNCTION ledger_entry_frozen();
