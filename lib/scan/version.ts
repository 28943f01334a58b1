// The scanner's version. Bump it with any change that can alter a verdict (a new rule, a closed
// miss, the module graph): every stored version scanned by an older one is rescanned.
export const SCANNER_VERSION = "2026.12.02-graph+instructions+budget";
