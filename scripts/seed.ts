// `npm run seed`: records the demo catalogue (skills/demo) in the configured database and media
// store. Safe to run again: a second run creates and changes nothing.
// Sign in as demo@openvibe.dev with the password `openvibe-demo`.
import { ConfigError } from "../lib/config/env.mjs";

async function main() {
  const { seedDemo } = await import("../lib/registry/seed-helpers");
  const { db } = await import("../lib/db");
  const { closeRedis } = await import("../lib/redis");
  try {
    const report = await seedDemo();
    console.log(
      `Demo catalogue: ${report.people} people, ${report.skills} skills, ` +
        `${report.versionsCreated} versions published now, ${report.versionsKept} already there` +
        (report.bytesRestored ? `, ${report.bytesRestored} lost code files restored` : "") +
        ".\nSign in as demo@openvibe.dev / openvibe-demo.",
    );
  } finally {
    // Installing the demo person's skills wakes their MCP clients through Redis.
    await Promise.all([db.$disconnect(), closeRedis()]);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
