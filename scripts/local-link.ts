// `npm start`'s local Link: prints a one-time pairing code for the demo person, the same code the
// dashboard's Links page would show, so start.mjs can pair `openvibe-link` on this machine.
import { ConfigError } from "../lib/config/env.mjs";

async function main() {
  const email = process.argv[2];
  if (!email) throw new Error("usage: scripts/local-link.ts EMAIL");
  const { db } = await import("../lib/db");
  const { createPairingCode } = await import("../lib/links/pairing");
  try {
    const user = await db.user.findUnique({ where: { email }, select: { id: true } });
    if (!user) throw new Error(`${email} does not exist: seed the demo first (npm run seed).`);
    const { code } = await createPairingCode(user.id);
    process.stdout.write(`${code}\n`);
  } finally {
    await db.$disconnect();
    const { redis } = await import("../lib/redis");
    await redis()
      .quit()
      .catch(() => undefined);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err instanceof Error ? err.message : err);
  process.exit(1);
});
