// Which versions a person may install, and why not: the one place the install rules live, so the
// page, the API and the steps code give the same answer with the same stable code.
import type { VersionStatus } from "../db/generated/enums";

export type InstallBlock = {
  code: "install.version_retired" | "install.scan_failed" | "install.scan_pending";
  reason: string;
};

type VersionState = { status: VersionStatus; retiredAt: Date | null };

/** Why this version can never (retired, failed) or not yet (scanning) be installed; null when it can. */
export function installBlock(v: VersionState): InstallBlock | null {
  if (v.retiredAt) {
    return {
      code: "install.version_retired",
      reason: "Its author retired this version, so it can no longer be installed. Install a newer version instead.",
    };
  }
  if (v.status === "failed") {
    return {
      code: "install.scan_failed",
      reason:
        "This version failed the registry's scan: its code does something a skill may never do (see the findings). It can never be installed.",
    };
  }
  if (v.status === "scanning") {
    return {
      code: "install.scan_pending",
      reason: "This version is still being scanned. It can be installed once the scan is done; try again in a minute.",
    };
  }
  return null;
}

export type AckCheck =
  | { ok: true; ackHash: string | null }
  | { ok: false; code: "install.findings_ack_required" | "install.findings_ack_stale"; reason: string };

/**
 * A flagged version installs only when the person confirmed they read exactly the findings the
 * listing has now (their hash); a passed version needs nothing.
 */
export function checkFindingsAck(
  status: VersionStatus,
  findingsHash: string | null,
  ack: string | null | undefined,
): AckCheck {
  if (status !== "flagged") return { ok: true, ackHash: ack && ack === findingsHash ? ack : null };
  if (!ack) {
    return {
      ok: false,
      code: "install.findings_ack_required",
      reason: "The scan flagged this version: read its findings and confirm you did before installing it.",
    };
  }
  if (!findingsHash || ack !== findingsHash) {
    return {
      ok: false,
      code: "install.findings_ack_stale",
      reason: "The findings you confirmed are not this version's current findings: read them again and confirm.",
    };
  }
  return { ok: true, ackHash: ack };
}

export const STATUS_WORDS: Record<VersionStatus, string> = {
  scanning: "being scanned",
  passed: "scan passed",
  flagged: "flagged by the scan",
  failed: "failed the scan",
};
