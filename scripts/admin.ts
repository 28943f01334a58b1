// `npm run admin -- …`: what only the people who run OpenVibe do, from the server's own shell.
//   pool list                      machines offering themselves to OpenVibe's pool, approved or not
//   pool approve LINK_ID           let that machine run anyone's jobs (projects that allow the pool)
//   pool revoke LINK_ID            take it out of the pool; other people's jobs on it are cancelled
//   operator add|remove EMAIL      make a person an operator (they may use /admin), or not
//   version delete SLUG@VERSION    delete a version nobody installed or ran, its listing and its code's Media
import { ConfigError } from "../lib/config/env.mjs";

const USAGE = `usage: npm run admin -- pool list | pool approve LINK_ID | pool revoke LINK_ID
                     | operator add EMAIL | operator remove EMAIL | version delete SLUG@VERSION`;

async function command(argv: string[]): Promise<number> {
  const [area, action, arg] = argv;
  if (area === "pool" && action === "list" && argv.length === 2) {
    const { listPoolLinks } = await import("../lib/links/pool");
    const links = await listPoolLinks();
    if (!links.length) console.log("No machine offers itself to the pool (openvibe-link run --pool).");
    for (const l of links) {
      const approval = l.approved_at ? `approved ${l.approved_at.toISOString()}` : "not approved";
      console.log(
        `${l.id}  ${l.name} (@${l.owner})  ${l.online ? "online" : "offline"}, runner ${l.runner}, ${l.offered ? "offered" : "not offered"}, ${approval}, ${l.jobs_run} jobs`,
      );
    }
    return 0;
  }
  if (area === "pool" && (action === "approve" || action === "revoke") && arg && argv.length === 3) {
    const { approvePoolLink, revokePoolLink } = await import("../lib/links/pool");
    if (action === "approve") {
      await approvePoolLink({ cli: true }, arg);
      console.log(`✓ ${arg} is an OpenVibe pool machine: it takes anyone's jobs while it runs with --pool.`);
    } else {
      await revokePoolLink({ cli: true }, arg);
      console.log(`✓ ${arg} is out of the pool: it serves only its own person now.`);
    }
    return 0;
  }
  if (area === "operator" && (action === "add" || action === "remove") && arg && argv.length === 3) {
    const { setOperator } = await import("../lib/admin/operators");
    await setOperator(arg, action === "add");
    console.log(`✓ ${arg} is ${action === "add" ? "an operator (/admin)" : "no longer an operator"}.`);
    return 0;
  }
  if (area === "version" && action === "delete" && arg && argv.length === 3) {
    const match = /^([a-z0-9][a-z0-9-]{1,62}[a-z0-9])@(\S+)$/.exec(arg);
    if (!match) throw new Error(`Name the version as SLUG@VERSION, e.g. csv-stats@1.0.0; got ${arg}.`);
    const { deleteVersion } = await import("../lib/registry/delete-version");
    const done = await deleteVersion({ slug: match[1]!, version: match[2]! });
    console.log(`✓ Deleted ${arg}: its listing and ${done.media_deleted} Media objects (${done.bytes_deleted} stored files).`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

async function main() {
  const { db } = await import("../lib/db");
  try {
    process.exitCode = await command(process.argv.slice(2));
  } finally {
    await db.$disconnect();
    const { redis } = await import("../lib/redis");
    await redis()
      .quit()
      .catch(() => undefined);
  }
}

main().catch((err: unknown) => {
  const code = err instanceof Error && "code" in err ? `${String(err.code)}: ` : "";
  console.error(`✗ ${err instanceof ConfigError ? err.message : `${code}${err instanceof Error ? err.message : String(err)}`}`);
  process.exit(1);
});
