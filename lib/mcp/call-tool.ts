// tools/call: the same `skill.run` step the REST API makes. When the person must approve, a client
// that declared URL elicitation is sent to the step's approval page and the call waits for the
// decision (the elicitation is completed when it comes); any other client gets a tool error at once
// naming what to approve, where and until when, and a repeat call attaches to the same step. While
// the job runs, progress says queued, placed and running; the result comes back as untrusted data.
import "server-only";
import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AgentPrincipal } from "../agents";
import { config } from "../config/env.mjs";
import { AppError } from "../errors";
import { channels, waitFor, watch, type Watch } from "../events";
import { log } from "../log";
import type { CatalogTool } from "./catalog";
import { findLiveStep, markDelivered, recordMcpCall } from "./live-step";
import { approvalNeeded, approvalRequest, stepFailure } from "./messages";
import { errorResult, successResult } from "./results";
import { readSkillRun, startSkillRun, TERMINAL_STATUSES, type McpStep } from "./steps-adapter";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Progress is sent at least this often, so clients that reset their timeout on progress keep waiting. */
const HEARTBEAT_MS = 15_000;
const RECHECK_MS = 5_000;

export const approvalUrl = (stepId: string) =>
  `${config().APP_URL.replace(/\/$/, "")}/dashboard/approvals/${encodeURIComponent(stepId)}`;

export async function callTool(
  server: Server,
  agent: AgentPrincipal,
  entry: CatalogTool,
  args: Record<string, unknown>,
  extra: Extra,
): Promise<CallToolResult> {
  const appUrl = config().APP_URL.replace(/\/$/, "");
  let step: McpStep;
  try {
    const live = await findLiveStep(agent, { versionId: entry.versionId, tool: entry.tool.name, input: args });
    step = live
      ? await readSkillRun(agent, live)
      : await startSkillRun(agent, { skill: `${entry.slug}@${entry.version}`, tool: entry.tool.name, input: args });
  } catch (err) {
    if (err instanceof AppError) return errorResult(appErrorText(err), null);
    throw err;
  }
  await recordMcpCall(agent, step.id);
  const progress = progressReporter(extra);

  if (step.status === "pending_approval") {
    const url = approvalUrl(step.id);
    if (!server.getClientCapabilities()?.elicitation?.url) return errorResult(approvalNeeded(step, url), step, url);
    const decided = await waitForDecision(server, agent, step, url, extra, progress);
    if (decided === "declined") return errorResult(approvalNeeded(step, url), step, url);
    if (decided === "gone") return errorResult("The call was cancelled; the step keeps waiting on OpenVibe.", step, url);
    step = decided;
  }

  step = await followRun(agent, step, extra, progress);
  if (!TERMINAL_STATUSES.has(step.status)) return errorResult("The call was cancelled; the run goes on.", step);
  await markDelivered(step.id);
  return step.status === "succeeded" ? successResult(step) : errorResult(stepFailure(step, appUrl), step);
}

function appErrorText(err: AppError): string {
  const details = Array.isArray(err.details)
    ? (err.details as { path?: string; message?: string }[]).slice(0, 20).map((d) => `- ${d.path ?? "/"}: ${d.message ?? ""}`)
    : [];
  return [err.message, ...details].join("\n");
}

type Progress = (message: string) => Promise<void>;

function progressReporter(extra: Extra): Progress {
  const token = extra._meta?.progressToken;
  let n = 0;
  return async (message) => {
    if (token === undefined) return;
    n += 1;
    await extra
      .sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: n, message } })
      .catch((err: unknown) => log.debug("mcp: progress not delivered", { err }));
  };
}

/**
 * Sends the person to the approval page (URL elicitation) and waits until the step leaves
 * `pending_approval`. "declined" when the client's person would not open the page, "gone" when
 * the call was cancelled or the client went away.
 */
async function waitForDecision(
  server: Server,
  agent: AgentPrincipal,
  pending: McpStep,
  url: string,
  extra: Extra,
  progress: Progress,
): Promise<McpStep | "declined" | "gone"> {
  const elicitationId = `${pending.id}.${randomUUID()}`;
  let declined = false;
  let wake: () => void = () => undefined;
  void server
    .elicitInput(
      { mode: "url", message: approvalRequest(pending), url, elicitationId },
      {
        relatedRequestId: extra.requestId,
        signal: extra.signal,
        // The person has until the step expires; the client must not be told to give up before.
        timeout: Math.max(1_000, pending.expiresAt.getTime() - Date.now() + 5_000),
      },
    )
    .then((r) => {
      if (r.action !== "accept") declined = true;
    })
    .catch((err: unknown) => log.debug("mcp: elicitation got no answer", { err }))
    .finally(() => wake());

  await progress(`Waiting for the person's approval on OpenVibe: ${url}`);
  let step = pending;
  let lastBeat = Date.now();
  while (step.status === "pending_approval") {
    if (declined) return "declined";
    if (extra.signal.aborted) return "gone";
    if (step.expiresAt.getTime() <= Date.now()) break;
    const woke = new Promise<void>((resolve) => (wake = resolve));
    await Promise.race([waitFor([channels.step(step.id)], 2_000, extra.signal), woke]);
    step = await readSkillRun(agent, step.id);
    if (Date.now() - lastBeat >= HEARTBEAT_MS) {
      lastBeat = Date.now();
      await progress("Still waiting for the person's approval on OpenVibe.");
    }
  }
  // The person decided (or the step expired): the client may close its URL prompt.
  await server
    .createElicitationCompletionNotifier(elicitationId, { relatedRequestId: extra.requestId })()
    .catch((err: unknown) => log.debug("mcp: elicitation completion not delivered", { err }));
  return step;
}

const STAGES = ["queued", "placed", "running"] as const;
type Stage = (typeof STAGES)[number];

/** How far the run got: every stage up to it happened, even those too quick to be seen. */
function stageOf(step: McpStep): number {
  const ran = step.status === "running" || (step.jobState !== null && ["succeeded", "failed"].includes(step.jobState) && !["integrity", "refused"].includes(step.exitStatus ?? ""));
  if (ran) return 3;
  if (step.placement !== null || step.jobState === "placed") return 2;
  if (step.runId !== null) return 1;
  return 0;
}

function stageWords(stage: Stage, step: McpStep): string {
  if (stage === "queued") return "Approved: queued for a Link with the skill runner on.";
  if (stage === "placed") return step.placement === "pool" ? "Placed on an OpenVibe pool machine." : "Placed on your own Link.";
  return "Running in the sandbox.";
}

async function followRun(agent: AgentPrincipal, start: McpStep, extra: Extra, progress: Progress): Promise<McpStep> {
  // The run's placement and start matter only to a client that asked for progress.
  const names = [channels.step(start.id)];
  if (extra._meta?.progressToken !== undefined) names.push(channels.stepProgress(start.id));
  const watching = watch(names);
  try {
    // Read again once listening: a run that moved (or ended) since `start` was read is not
    // waited on until the next look.
    const now = TERMINAL_STATUSES.has(start.status) ? start : await readSkillRun(agent, start.id);
    return await followWatched(agent, now, extra, progress, watching);
  } finally {
    watching.close();
  }
}

async function followWatched(
  agent: AgentPrincipal,
  start: McpStep,
  extra: Extra,
  progress: Progress,
  watching: Watch,
): Promise<McpStep> {
  let step = start;
  let reported = 0;
  let lastBeat = Date.now();
  for (;;) {
    const reached = stageOf(step);
    for (; reported < reached; reported++) await progress(stageWords(STAGES[reported]!, step));
    if (TERMINAL_STATUSES.has(step.status) || extra.signal.aborted) return step;
    // Every move of the run is announced: its end on the step's channel, its placement and start
    // on its progress channel; the timeout only bounds a lost wake-up (and the reads of 100
    // agents waiting in a queue).
    await watching.next(RECHECK_MS, extra.signal);
    step = await readSkillRun(agent, step.id);
    if (Date.now() - lastBeat >= HEARTBEAT_MS && stageOf(step) === reached) {
      lastBeat = Date.now();
      await progress(`Still ${reached === 3 ? "running" : "waiting for a Link"}.`);
    }
  }
}
