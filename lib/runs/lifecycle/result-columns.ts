// What a Link's verified result writes on its job and on its step, for every way of recording it
// (the one-statement finish, the transition's general way, and a late result).
import type { Prisma } from "../../db";
import type { Attestation, JobResultBody } from "../../protocol";
import { REFUSAL_WORDS, RESULT_WORDS } from "./words";

/** Whether the tool ran at all: a refusal or an integrity failure ran nothing (and costs nothing). */
export const resultRan = (result: JobResultBody) => result.status !== "integrity" && result.status !== "refused";

/** The columns a result fills on its job (`output` undefined: SQL NULL). */
export function resultColumns(result: JobResultBody, attestation: Attestation) {
  return {
    attestation: attestation as unknown as Prisma.InputJsonObject,
    resultStatus: result.status,
    output: result.status === "ok" ? (result.output as Prisma.InputJsonValue) : undefined,
    stderr: result.stderr,
    exitCode: result.exit,
    wallMsUsed: result.wall_ms,
    maxRssBytes: result.max_rss_bytes === null ? null : BigInt(result.max_rss_bytes),
  };
}

/** The columns a result fills on its step: what the agent gets (`result` undefined: SQL NULL) and reads. */
export function resultStepColumns(result: JobResultBody) {
  return {
    result:
      result.status === "ok"
        ? ({ type: "tool_result", untrusted: true, data: result.output } as Prisma.InputJsonObject)
        : undefined,
    wallMs: result.wall_ms,
    exitStatus: result.status,
    message: (result.code && REFUSAL_WORDS[result.code]) || RESULT_WORDS[result.status],
  };
}
