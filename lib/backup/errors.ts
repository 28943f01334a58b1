// A backup or restore that cannot go on: its message is one line (or a few) a person can act on,
// printed as is by the command-line programs.
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}
