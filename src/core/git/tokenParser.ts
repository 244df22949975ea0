/** Splits a byte stream at NUL bytes into tokens; holds at most one partial token between chunks. */
export abstract class TokenParser {
  private pending: Buffer | undefined;

  push(chunk: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let start = 0;
    for (let i = buf.indexOf(0); i >= 0; i = buf.indexOf(0, start)) {
      this.token(buf.toString('utf8', start, i));
      start = i + 1;
    }
    this.pending = start < buf.length ? Buffer.from(buf.subarray(start)) : undefined;
  }

  end(): void {
    if (this.pending) this.token(this.pending.toString('utf8'));
    this.pending = undefined;
    this.flush();
  }

  protected abstract token(raw: string): void;
  /** Hands on the commit being read, if any. */
  protected abstract flush(): void;
}
