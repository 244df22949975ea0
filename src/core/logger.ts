/** The engine's only way to say something: adapters plug in a VS Code LogOutputChannel, stderr, or nothing. */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

export const nullLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** Writes to stderr so that stdout stays clean for `--json` output and the MCP stdio transport. */
export class StderrLogger implements Logger {
  constructor(private readonly verbose = false) {}
  trace(message: string, ...args: unknown[]): void {
    if (this.verbose) this.write('trace', message, args);
  }
  debug(message: string, ...args: unknown[]): void {
    if (this.verbose) this.write('debug', message, args);
  }
  info(message: string, ...args: unknown[]): void {
    if (this.verbose) this.write('info', message, args);
  }
  warn(message: string, ...args: unknown[]): void {
    this.write('warn', message, args);
  }
  error(message: string | Error, ...args: unknown[]): void {
    this.write('error', message instanceof Error ? message.message : message, args);
  }
  private write(level: string, message: string, args: unknown[]): void {
    const extra = args.length
      ? ' ' +
        args.map((a) => (a instanceof Error ? a.message : typeof a === 'string' ? a : JSON.stringify(a))).join(' ')
      : '';
    process.stderr.write(`[${level}] ${message}${extra}\n`);
  }
}

/** Records log lines; useful to adapters that want to show the last problems, and to tests. */
export class MemoryLogger implements Logger {
  readonly lines: { level: string; message: string }[] = [];
  trace(m: string): void {
    this.lines.push({ level: 'trace', message: m });
  }
  debug(m: string): void {
    this.lines.push({ level: 'debug', message: m });
  }
  info(m: string): void {
    this.lines.push({ level: 'info', message: m });
  }
  warn(m: string, ...args: unknown[]): void {
    this.lines.push({ level: 'warn', message: [m, ...args.map(String)].join(' ') });
  }
  error(m: string | Error, ...args: unknown[]): void {
    this.lines.push({ level: 'error', message: [m instanceof Error ? m.message : m, ...args.map(String)].join(' ') });
  }
}
