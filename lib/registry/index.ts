// The registry: publishing versions, scanning them, reading and retiring them.
export { publishSkill, runsOf, type PublishInput, type PublishResult } from "./publish";
export { scanVersion, stuckScans, SCAN_STUCK_AFTER_MS } from "./scan-version";
export { enqueueRescan, enqueueScan, scanQueue, SCAN_QUEUE } from "./scan-queue";
export { listingDocument, findingsHash, listingFindings } from "./listing";
export { listingCodeBytes } from "./listing-code";
export { getSkill, getVersion, retireVersion, latestOf } from "./versions";
export { deleteVersion } from "./delete-version";
export { compareSemver, semverParts } from "./semver";
export { readArchive, MAX_ARCHIVE_BYTES, MAX_BUNDLE_BYTES, MAX_ARCHIVE_ENTRIES } from "./archive";
export {
  hasOutdatedScans,
  rescanOutdated,
  rescanVersion,
  RESCAN_BATCH,
  type RescanNotice,
  type RescanOutcome,
} from "./rescan";
