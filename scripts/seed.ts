// `npm run seed [-- --demo | --no-demo]`: records the demo catalogue (scripts/demo/skills) in the configured
// database and media store. Safe to run again: a second run creates and changes nothing.
//
// The demo account (demo@openvibe.dev, with the password README publishes) exists only where the
// site stays on this machine: by default when APP_URL is loopback. `--demo` adds it anyway, on
// purpose; `--no-demo` leaves it out (npm start does so when it listens beyond loopback). Without
// it, a demo person that still has the published password loses it.
import { ConfigError, config } from "../lib/config/env.mjs";
import { isLoopbackUrl } from "../lib/config/loopback.mjs";

const USAGE = "usage: npm run seed [-- --demo | --no-demo]";

function demoSignInWanted(args: string[]): boolean {
  const unknown = args.filter((a) => a !== "--demo" && a !== "--no-demo");
  if (unknown.length || (args.includes("--demo") && args.includes("--no-demo"))) {
    console.error(unknown.length ? `Unknown option ${unknown.join(" ")}. ${USAGE}` : USAGE);
    process.exit(2);
  }
  if (args.includes("--demo")) return true;
  if (args.includes("--no-demo")) return false;
  return isLoopbackUrl(config().APP_URL);
}

async function main() {
  const demoSignIn = demoSignInWanted(process.argv.slice(2));
  const { seedDemo } = await import("./demo/seed-helpers");
  const { db } = await import("../lib/db");
  const { closeRedis } = await import("../lib/redis");
  try {
    const report = await seedDemo(undefined, { demoSignIn });
    console.log(
      `Demo catalogue: ${report.people} people, ${report.skills} skills, ` +
        `${report.versionsCreated} versions published now, ${report.versionsKept} already there` +
        (report.bytesRestored ? `, ${report.bytesRestored} lost code files restored` : "") +
        ".\n" +
        (report.demoSignIn
          ? "demo@openvibe.dev can sign in with the demo password."
          : `No demo sign-in (${process.argv.includes("--no-demo") ? "--no-demo" : `APP_URL ${config().APP_URL} is not loopback`}; ` +
            "npm run seed -- --demo adds it on purpose)."),
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
