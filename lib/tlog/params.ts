// The log endpoints' query parameters: decimal indices and sizes, each refused with a stable code
// and a message that says what was wrong. Pure.
import { AppError } from "../errors";

const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;

/** Most entries one `entries` request returns (a C2SP tile's width). */
export const MAX_ENTRIES_PAGE = 256;

/** A non-negative integer query parameter, or a 422 `log.parameter_invalid` naming it. */
export function countParam(query: URLSearchParams, name: string): number {
  const values = query.getAll(name);
  const value = values[0];
  if (values.length !== 1 || value === undefined || !DECIMAL.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new AppError(
      "log.parameter_invalid",
      `${name} must be given once, as a non-negative whole number in decimal (e.g. ${name}=3).`,
      { details: { parameter: name } },
    );
  }
  return Number(value);
}

/** A tree size between 1 and the log's current size. */
export function checkSize(size: number, treeSize: number, name = "size"): void {
  if (size < 1 || size > treeSize) {
    throw new AppError(
      "log.size_invalid",
      treeSize === 0
        ? "The log has no entries yet."
        : `${name} must be between 1 and the log's current size, ${treeSize}.`,
      { details: { parameter: name, tree_size: treeSize } },
    );
  }
}
