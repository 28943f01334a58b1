// tools/call results. A run's output is untrusted data: `structuredContent` holds it (an object, so
// a bare value is wrapped as `{ result }`), a text block carries the same JSON for clients that read
// only text, and `_meta` says it is untrusted and names the run, its placement and its attestation.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpStep } from "./steps-adapter";

export const META_UNTRUSTED = "openvibe/untrusted";
export const META_RUN = "openvibe/run";

type StepMeta = Pick<McpStep, "id" | "status" | "runId" | "placement" | "wallMs" | "exitStatus" | "attestation">;

function runMeta(step: StepMeta, approvalUrl?: string) {
  return {
    step_id: step.id,
    status: step.status,
    ...(step.runId ? { id: step.runId } : {}),
    ...(step.placement ? { placement: step.placement } : {}),
    ...(step.wallMs !== null ? { wall_ms: step.wallMs } : {}),
    ...(step.exitStatus ? { exit_status: step.exitStatus } : {}),
    ...(step.attestation !== undefined ? { attestation: step.attestation } : {}),
    ...(approvalUrl ? { approval_url: approvalUrl } : {}),
  };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function successResult(step: StepMeta & { data?: unknown }): CallToolResult {
  const data = step.data ?? null;
  return {
    content: [{ type: "text", text: JSON.stringify(data) }],
    structuredContent: isPlainObject(data) ? data : { result: data },
    _meta: { [META_UNTRUSTED]: true, [META_RUN]: runMeta(step) },
  };
}

/** A tool error in plain words; with the step when there is one, so a client can point at it. */
export function errorResult(text: string, step: StepMeta | null, approvalUrl?: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text }],
    ...(step ? { _meta: { [META_RUN]: runMeta(step, approvalUrl) } } : {}),
  };
}
