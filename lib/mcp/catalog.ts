// What one agent sees over MCP, read fresh from the person's installs in the agent's project:
// the tools of enabled sandbox skills that may run now, and prompt skills as prompts and resources.
// A fingerprint per list tells the list_changed watcher when a list really changed.
import "server-only";
import { createHash } from "node:crypto";
import type { Tool as McpTool, Prompt, Resource as McpResource } from "@modelcontextprotocol/sdk/types.js";
import type { AgentPrincipal } from "../agents";
import type { SkillDocument, Tool } from "../contracts";
import { db, sqlPool, type VersionStatus } from "../db";
import { checkFindingsAck, installBlock } from "../installs";
import { whereItRuns } from "./messages";
import { mcpToolNames } from "./tool-names";

export type CatalogTool = { name: string; slug: string; version: string; versionId: string; tool: Tool; mcp: McpTool };
export type CatalogPrompt = { prompt: Prompt; instructions: string };
export type CatalogResource = { resource: McpResource; text: string };
export type Catalog = { tools: CatalogTool[]; prompts: CatalogPrompt[]; resources: CatalogResource[] };

const RESOURCE_ROOT = "openvibe://skills";
export const resourceUri = (slug: string, version: string, path: string) => `${RESOURCE_ROOT}/${slug}/${version}/${path}`;

async function runnableInstalls(agent: AgentPrincipal) {
  const rows = await db.install.findMany({
    where: {
      userId: agent.userId,
      projectId: agent.projectId,
      enabled: true,
    },
    select: {
      findingsAckHash: true,
      skill: { select: { slug: true } },
      version: {
        select: {
          id: true,
          version: true,
          name: true,
          summary: true,
          runs: true,
          status: true,
          retiredAt: true,
          document: true,
          listing: { select: { findingsHash: true } },
        },
      },
    },
  });
  // Only what can run (or be read) right now: a tools/call of anything else would only fail.
  return rows
    .filter((r) => !installBlock(r.version) && checkFindingsAck(r.version.status, r.version.listing?.findingsHash ?? null, r.findingsAckHash).ok)
    .sort((a, b) => bySlug(a.skill, b.skill));
}

export async function loadCatalog(agent: AgentPrincipal): Promise<Catalog> {
  return catalogOf(await runnableInstalls(agent));
}

// The sandbox installs' tools alone, for tools/list and every tools/call: one prepared statement
// that reads each version's `tools`, not its whole document.
const TOOLS_SQL = `
  SELECT s.slug, v.id AS "versionId", v.version, v.status::text AS status, v."retiredAt",
         i."findingsAckHash", l."findingsHash", v.document->>'contract' AS contract, v.document->'tools' AS tools
    FROM "Install" i
    JOIN "Skill" s ON s.id = i."skillId"
    JOIN "SkillVersion" v ON v.id = i."versionId"
    LEFT JOIN "Listing" l ON l."versionId" = v.id
   WHERE i."userId" = $1 AND i."projectId" = $2 AND i.enabled AND v.runs::text = 'sandbox'`;

type ToolsRow = {
  slug: string;
  versionId: string;
  version: string;
  status: VersionStatus;
  retiredAt: Date | null;
  findingsAckHash: string | null;
  findingsHash: string | null;
  contract: string | null;
  tools: Tool[] | null;
};

/** The tools alone: the same entries, names included, as loadCatalog's. */
export async function loadTools(agent: AgentPrincipal): Promise<CatalogTool[]> {
  const { rows } = await sqlPool().query<ToolsRow>({
    name: "mcp-tools",
    text: TOOLS_SQL,
    values: [agent.userId, agent.projectId],
  });
  const found: Omit<CatalogTool, "name" | "mcp">[] = [];
  for (const row of rows
    .filter((r) => !installBlock(r) && checkFindingsAck(r.status, r.findingsHash, r.findingsAckHash).ok)
    .sort(bySlug)) {
    if (row.contract !== "actor.skill@2") continue;
    for (const tool of Array.isArray(row.tools) ? row.tools : [])
      found.push({ slug: row.slug, version: row.version, versionId: row.versionId, tool });
  }
  return namedTools(found);
}

const bySlug = (a: { slug: string }, b: { slug: string }) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

function catalogOf(installs: Awaited<ReturnType<typeof runnableInstalls>>): Catalog {
  const found: Omit<CatalogTool, "name" | "mcp">[] = [];
  const prompts: CatalogPrompt[] = [];
  const resources: CatalogResource[] = [];
  for (const row of installs) {
    const doc = row.version.document as unknown as SkillDocument;
    const slug = row.skill.slug;
    if (row.version.runs === "sandbox" && doc.contract === "actor.skill@2") {
      for (const tool of doc.tools ?? []) found.push({ slug, version: row.version.version, versionId: row.version.id, tool });
      continue;
    }
    prompts.push({
      prompt: { name: slug, title: row.version.name, description: row.version.summary },
      instructions: doc.instructions,
    });
    resources.push({
      resource: {
        uri: resourceUri(slug, row.version.version, "instructions"),
        name: `${slug} instructions`,
        title: `${row.version.name}: instructions`,
        description: row.version.summary,
        mimeType: "text/markdown",
      },
      text: doc.instructions,
    });
    for (const r of doc.resources) {
      // SKILL.md of an imported skill is its instructions again, with front matter.
      if (r.media_type !== "text/markdown" || r.name === "SKILL.md") continue;
      resources.push({
        resource: {
          uri: resourceUri(slug, row.version.version, `files/${r.name}`),
          name: `${slug}/${r.name}`,
          title: `${row.version.name}: ${r.name}`,
          mimeType: "text/markdown",
        },
        text: r.text,
      });
    }
  }
  return { tools: namedTools(found), prompts, resources };
}

/** The entries with their MCP names (unique across the list) and descriptions. */
function namedTools(found: Omit<CatalogTool, "name" | "mcp">[]): CatalogTool[] {
  const names = mcpToolNames(found.map((t) => ({ slug: t.slug, tool: t.tool.name })));
  return found.map((t, i) => {
    const name = names[i]!;
    const title = `${t.slug}: ${t.tool.name}`;
    const mcp: McpTool = {
      name,
      title,
      description: `${t.tool.description}\n\nFrom the skill ${t.slug}@${t.version}. ${whereItRuns(t.tool)}`,
      inputSchema: t.tool.args as McpTool["inputSchema"],
      annotations: { title, openWorldHint: t.tool.net !== "deny" },
      _meta: { "openvibe/skill": `${t.slug}@${t.version}`, "openvibe/tool": t.tool.name },
    };
    return { ...t, name, mcp };
  });
}

export type Fingerprints = { tools: string; prompts: string; resources: string };

// The lists are built in a fixed order, so their JSON is a stable fingerprint.
const digest = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

export function fingerprints(catalog: Catalog): Fingerprints {
  return {
    tools: digest(catalog.tools.map((t) => t.mcp)),
    prompts: digest(catalog.prompts.map((p) => p.prompt)),
    resources: digest(catalog.resources.map((r) => r.resource)),
  };
}
