// The claim and the one-statement result are planned once per connection (a generic plan), perhaps
// while the tables are small and their statistics few or none, and that plan serves the connection
// while a Link's history grows. Against the real PostgreSQL: the same prepared plan, run before and
// after the history (finished jobs, their steps, stored objects) grows tenfold, touches as many
// rows: a claim's work follows the queue it weighs, a result's is its own rows, reached by key.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../../test/helpers/integration";
import { closeRunPath, linkFor, ok, signed, textToolsPerson, type TestLink } from "../../../test/helpers/runs";

let env: IntegrationEnv;
let link: TestLink;
let token: string;
let skill: string;
let finished: string;
let copies = 0;
/** Finished jobs at first (ten times as many later), and calls queued for the claim to weigh. */
const HISTORY = 100;
const QUEUED = 30;

/** `n` more copies of the finished job, its step and a stored object, as a long-used Link leaves. */
async function addHistory(n: number): Promise<void> {
  const from = copies + 1;
  copies += n;
  const copy = (table: string, row: string, extra: string) =>
    env.db.$executeRawUnsafe(
      `INSERT INTO "${table}"
       SELECT (jsonb_populate_record(NULL::"${table}", to_jsonb(r) || jsonb_build_object('id', r.id || '-h' || g${extra}))).*
         FROM (${row}) AS r, generate_series(${from}, ${copies}) AS g`,
      finished,
    );
  await copy("RunJob", `SELECT * FROM "RunJob" WHERE id = $1`, `, 'stepId', NULL, 'idempotencyKey', r.id || '-h' || g`);
  await copy(
    "Step",
    `SELECT * FROM "Step" WHERE id = (SELECT "stepId" FROM "RunJob" WHERE id = $1)`,
    `, 'idempotencyKey', r.id || '-h' || g`,
  );
  await copy(
    "MediaObject",
    `SELECT * FROM "MediaObject" WHERE $1 <> '' LIMIT 1`,
    `, 'storageKey', r."storageKey" || '-h' || g`,
  );
}

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Join Filter"?: number;
  Plans?: PlanNode[];
};

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Rows every node of an analyzed plan produced or threw away, over all its loops. */
const rowsTouched = (nodes: PlanNode[]) =>
  nodes.reduce(
    (sum, n) =>
      sum +
      (n["Actual Rows"] ?? 0) * (n["Actual Loops"] ?? 1) +
      (n["Rows Removed by Filter"] ?? 0) +
      (n["Rows Removed by Join Filter"] ?? 0),
    0,
  );

type Captured = { name: string; text: string; values: unknown[] };

/** Runs `work` and returns the named statement it sent through the shared pool. */
async function captureStatement(name: string, work: () => Promise<unknown>): Promise<Captured> {
  const { sqlPool } = await import("../../db");
  const pool = sqlPool();
  const send = pool.query.bind(pool) as (config: Captured) => Promise<unknown>;
  let captured: Captured | undefined;
  (pool as unknown as { query: unknown }).query = (config: Captured) => {
    if (config?.name === name) captured = config;
    return send(config);
  };
  try {
    await work();
  } finally {
    delete (pool as unknown as { query?: unknown }).query;
  }
  if (!captured) throw new Error(`${name} was not sent`);
  return captured;
}

/**
 * The statement prepared on a connection of its own with a generic plan, made now, as the shared
 * pool's connections make theirs; `explain` runs it, analyzed, in a transaction rolled back.
 */
async function prepared(statement: Captured) {
  const { HOT_PATH_SETTINGS } = await import("../../db/pool");
  const client = new pg.Client({ connectionString: env.database.url, options: HOT_PATH_SETTINGS });
  await client.connect();
  await client.query(`PREPARE hot AS ${statement.text}`);
  const literals = statement.values.map((v) => (v === null ? "NULL" : client.escapeLiteral(String(v))));
  return {
    async explain(): Promise<PlanNode[]> {
      await client.query("BEGIN");
      try {
        const { rows } = await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
          `EXPLAIN (FORMAT JSON, ANALYZE) EXECUTE hot(${literals.join(", ")})`,
        );
        return nodesOf(rows[0]!["QUERY PLAN"][0]!.Plan);
      } finally {
        await client.query("ROLLBACK");
      }
    },
    close: () => client.end(),
  };
}

async function call(n: number): Promise<void> {
  const { createSkillRunStep } = await import("../../steps");
  const { verifyAgentToken } = await import("../../agents");
  const agent = await verifyAgentToken(token);
  for (let i = 0; i < n; i++) {
    const answer = await createSkillRunStep(agent, {
      skill,
      tool: "slugify",
      input: { text: `call ${i} ${Math.random()}` },
    });
    expect(answer.status).toBe("queued");
  }
}

const poll = async (max: number) => {
  const { pollForJob } = await import("../index");
  return pollForJob(link, { runner: "on", runner_epoch: 0, pool: false, wait_ms: 0, inline: true, max });
};

beforeAll(async () => {
  env = await setupIntegration("hot-plans");
  const { person, versionId } = await textToolsPerson("hot-plans@example.test");
  const { grantAlwaysAllow } = await import("../../installs");
  await grantAlwaysAllow({ userId: person.id, versionId, tool: "slugify" });
  const agents = await import("../../agents");
  const made = await agents.createAgent(person.id, { name: "hot" });
  await agents.setAllowance(person.id, made.agent.id, 1_000_000_000_000n);
  token = made.token;
  const version = await env.db.skillVersion.findUniqueOrThrow({ where: { id: versionId } });
  skill = `text-tools@${version.version}`;
  link = await linkFor(env, person.id);

  // One finished job: its copies are the Link's history.
  await call(1);
  const [first] = (await poll(1)).jobs!;
  const { report } = await import("../../../test/helpers/runs");
  await report(link, first!.job.id, ok({ slug: "a" }));
  finished = first!.job.id;
  await addHistory(HISTORY);
  await call(QUEUED);
}, 120_000);

afterAll(async () => {
  await closeRunPath();
  await env?.teardown();
});

const show = (plan: PlanNode[]) =>
  plan
    .map(
      (n) =>
        `${n["Node Type"]} ${n["Relation Name"] ?? ""} ${n["Index Name"] ?? ""} rows=${n["Actual Rows"]}×${n["Actual Loops"]}`,
    )
    .join("\n");

/** Rows the statement touches now, and once the history is ten times as long, by the same plan. */
async function beforeAndAfterHistory(statement: Captured) {
  const hot = await prepared(statement);
  try {
    const before = rowsTouched(await hot.explain());
    await addHistory(9 * HISTORY);
    const plan = await hot.explain();
    return { before, after: rowsTouched(plan), plan: show(plan) };
  } finally {
    await hot.close();
  }
}

describe("the run path's hot statements, planned before any table was analyzed", () => {
  it("a claim does work that follows the queue, never the history", async () => {
    const claim = await captureStatement("run-claim", () => poll(1));
    const { before, after, plan } = await beforeAndAfterHistory(claim);
    expect(after, plan).toBeLessThanOrEqual(before + 10);
    // The window of queued jobs is read a few times over (fairness, locks, the start).
    expect(after, plan).toBeLessThan(QUEUED * 25);
  });

  it("a poll's look for revoked versions starts from the versions, never from the Link's jobs", async () => {
    const revoked = await captureStatement("link-revoked-versions", () => poll(1));
    const { before, after, plan } = await beforeAndAfterHistory(revoked);
    expect(after, plan).toBeLessThanOrEqual(before + 10);
    expect(after, plan).toBeLessThan(20);
  });

  it("a result reaches its job, step and Link by key, whatever the history", async () => {
    await call(1);
    const [job] = (await poll(1)).jobs!;
    const { resultFacts, verifiedAttestation } = await import("../attestation");
    const { finishAtOnce } = await import("./finish-at-once");
    const body = await signed(link, job!.job.id, ok({ slug: "b" }));
    const facts = await resultFacts(link.linkId, job!.job.id);
    const finish = await captureStatement("run-finish-ok", () =>
      finishAtOnce(link.linkId, job!.job.id, facts!, body, verifiedAttestation(facts!, link.linkId, job!.job.id, body)),
    );
    const { before, after, plan } = await beforeAndAfterHistory(finish);
    expect(after, plan).toBeLessThanOrEqual(before + 10);
    expect(after, plan).toBeLessThan(20);
  });
});
