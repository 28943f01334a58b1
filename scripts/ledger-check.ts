// `npm run ledger:check`: exits 1 and lists every person whose balance columns differ from their
// ledger's sums (lib/billing/ledger-check.ts); exits 0 and says how many people it checked.
import { ConfigError } from "../lib/config/env.mjs";

async function main() {
  const { db } = await import("../lib/db");
  const { ledgerDifferences } = await import("../lib/billing/ledger-check");
  try {
    const [differences, people] = await Promise.all([ledgerDifferences(), db.user.count()]);
    if (!differences.length) {
      console.log(`✓ ledger:check: the balance and held columns of all ${people} people equal their ledgers.`);
      return;
    }
    console.error(`✗ ledger:check: ${differences.length} of ${people} people differ from their ledgers:`);
    for (const d of differences) {
      console.error(
        `  ${d.userId} ${d.email}: balance ${d.balanceMicros} (ledger ${d.ledgerBalanceMicros}), held ${d.heldMicros} (ledger ${d.ledgerHeldMicros})`,
      );
    }
    process.exitCode = 1;
  } finally {
    await db.$disconnect();
  }
}

main().catch((err: unknown) => {
  console.error(`✗ ${err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
