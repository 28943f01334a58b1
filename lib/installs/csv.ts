// CSV for the audit export: RFC 4180 quoting, CRLF line ends, and text cells that a spreadsheet
// would read as a formula made inert (an agent's name is chosen by a person and could start with "=").

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | null | undefined;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? quoted(text) : text;
}

/** One pass, the same work per character whether it is a quote or not (replaceAll is not). */
function quoted(text: string): string {
  let out = '"';
  for (const ch of text) out += ch === '"' ? '""' : ch;
  return out + '"';
}

export function csvRow(cells: CsvCell[]): string {
  return cells.map(csvCell).join(",") + "\r\n";
}
