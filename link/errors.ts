// The Link's one error class: a stable dotted code for programs, a message for people.
export class LinkError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "LinkError";
    this.code = code;
  }
}
