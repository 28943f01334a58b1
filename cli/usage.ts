// The usage of `openvibe verify` and `openvibe verify-run`, apart from their code: `openvibe --help`
// prints them without loading the verifiers.

export const VERIFY_USAGE = `Usage: openvibe verify SLUG@VERSION [--server URL] [--json]

  Checks that the version the registry serves is the one in its public transparency log:
  the log's signature, that the log only grew since you last checked, the code bytes and
  integrity, and the log entries of the version. Exits 1 on any mismatch.

  --server   the registry (default: $OPENVIBE_SERVER or http://localhost:3000)
  --json     print the report as JSON
  State (the pinned log key, the last checkpoint seen) is kept in $OPENVIBE_CONFIG_DIR/logs.json
  (default ~/.config/openvibe).`;

export const VERIFY_RUN_USAGE = `Usage: openvibe verify-run RUN.json [--server URL] [--json]

  Checks a run exported from its run page ("Export attestation"): the output and stderr against
  the digests the Link signed, the Link's signature, and that the key is the one the registry
  publishes for that Link. Asks the server for nothing but the Link's public key. Exits 1 on any
  mismatch.

  --server   whom to ask for the Link's key (default: $OPENVIBE_SERVER or http://localhost:3000)
  --json     print the report as JSON`;
