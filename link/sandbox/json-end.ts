// Tells when a stream of stdout bytes holds one complete top-level JSON value, in one pass, so
// the runner can end a tool that wrote its answer but left a timer or socket open.
export class JsonEndDetector {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  private scalar = false;
  complete = false;

  push(chunk: Uint8Array): boolean {
    for (const byte of chunk) {
      if (this.complete) return true;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === 0x5c) this.escaped = true;
        else if (byte === 0x22) {
          this.inString = false;
          if (this.depth === 0) this.complete = true;
        }
        continue;
      }
      const space = byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
      if (!this.started) {
        if (space) continue;
        this.started = true;
        if (byte === 0x7b || byte === 0x5b) this.depth = 1;
        else if (byte === 0x22) this.inString = true;
        else this.scalar = true;
        continue;
      }
      if (this.scalar) {
        if (space) this.complete = true;
        continue;
      }
      if (byte === 0x22) this.inString = true;
      else if (byte === 0x7b || byte === 0x5b) this.depth++;
      else if (byte === 0x7d || byte === 0x5d) {
        this.depth--;
        if (this.depth === 0) this.complete = true;
      }
    }
    return this.complete;
  }
}
