import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_MAIN } from '../../fixtures/mcp/harness';
import type { TempRepo } from '../git/repoFixture';
import { hostileRepo } from './hostileRepo';

/** Safety bound for what the server must do "at once": generous, for a busy 2-core machine. */
const PROMPT_MS = 5000;

/** The real CLI's stdio MCP server, spoken to line by line. */
class ServerProcess {
  stderr = '';
  private readonly replies = new Map<string, unknown>();
  private buffered = '';
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(repo: TempRepo, extraArgs: string[] = []) {
    this.child = spawn(process.execPath, [
      CLI_MAIN,
      'mcp',
      '--root',
      repo.dir,
      '--state-dir',
      repo.stateDir,
      '--verbose',
      ...extraArgs,
    ]);
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    this.child.stderr.on('data', (d) => (this.stderr += d));
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffered += d.toString();
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        const msg = JSON.parse(this.buffered.slice(0, nl)) as { id?: string };
        this.buffered = this.buffered.slice(nl + 1);
        if (msg.id !== undefined) this.replies.set(msg.id, msg);
      }
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(JSON.stringify(message) + '\n');
  }

  async initialize(): Promise<void> {
    this.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'load', version: '1' } },
    });
    await this.until('the initialize reply', () => this.replies.has('init'), 60_000);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Sends a ping; resolves with how long the reply took, or fails past `withinMs`. */
  async ping(id: string, withinMs: number): Promise<number> {
    const sent = Date.now();
    this.send({ jsonrpc: '2.0', id, method: 'ping' });
    await this.until(`the reply to ping ${id}`, () => this.replies.has(id), withinMs);
    return Date.now() - sent;
  }

  async until(what: string, pred: () => boolean, timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`no ${what} within ${timeoutMs} ms; stderr: ${this.stderr.slice(-2000)}`);
      if (this.child.exitCode !== null)
        throw new Error(
          `the server exited (${this.child.exitCode}) before ${what}; stderr: ${this.stderr.slice(-2000)}`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async exitWithin(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(
          () => reject(new Error(`still running ${ms} ms after the signal; stderr: ${this.stderr.slice(-2000)}`)),
          ms,
        )),
    );
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** inotify watches the process holds (Linux: one `inotify wd:` line per watch in its fdinfo). */
function inotifyWatches(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fdinfo`)) {
    try {
      n += readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify wd:')).length;
    } catch {
      // The descriptor closed meanwhile.
    }
  }
  return n;
}

describe('MCP server on a repository with 100k tags and large ignored trees', function () {
  this.timeout(180_000);
  let repo: TempRepo;
  let server: ServerProcess | undefined;

  before(() => {
    repo = hostileRepo({ packedTags: 100_000, looseTags: 3000, ignoredFolders: 1000 });
  });
  afterEach(() => server?.kill());
  after(() => repo.dispose());

  it('watches only tracked folders, answers pings during a burst of 5,000 files and 2,000 tags, and ends on SIGINT', async () => {
    server = new ServerProcess(repo);
    await server.initialize();
    await server.until(
      '"File watching" in the log',
      () => /File watching: \d+ folder watch/.test(server!.stderr),
      60_000,
    );
    // 6 tracked folders and 4 of the repository's; the old watcher held one per file (over 100,000 here).
    const watches = inotifyWatches(server.child.pid!);
    assert.ok(watches <= 30, `${watches} inotify watches`);

    const head = repo.head();
    const latencies: number[] = [];
    for (let i = 0; i < 5000; i++) {
      writeFileSync(join(repo.dir, 'src', 'util', `burst-${i}.ts`), `export const b${i} = ${i};\n`);
      if (i === 2500) latencies.push(await server.ping('mid-burst', PROMPT_MS));
    }
    const tags = Array.from({ length: 2000 }, (_, i) => `create refs/tags/burst-${i} ${head}\n`).join('');
    execFileSync('git', ['update-ref', '--stdin'], { cwd: repo.dir, input: tags });
    latencies.push(await server.ping('after-burst', PROMPT_MS));
    assert.equal(inotifyWatches(server.child.pid!), watches, 'no new watches for new files or tags');

    server.child.kill('SIGINT');
    const exit = await server.exitWithin(PROMPT_MS);
    assert.deepEqual(exit, { code: 0, signal: null }, `an orderly exit; stderr: ${server.stderr.slice(-1000)}`);
    assert.match(server.stderr, /mcp: SIGINT: closing/);
    assert.ok(latencies.every((ms) => ms < PROMPT_MS));
  });

  it('holds no more watches than --max-watches allows, and says in the log that it polls the rest', async () => {
    server = new ServerProcess(repo, ['--max-watches', '3']);
    await server.initialize();
    await server.until(
      '"File watching" in the log',
      () => /File watching: 3 folder watches, 7 folders polled/.test(server!.stderr),
      60_000,
    );
    assert.match(
      server.stderr,
      /the limit of 3 folder watches \(--max-watches\) was reached; further folders are polled every 2\.0 s instead/,
    );
    // The three of the workspace, and the engine's own: at most one for the state folder and two for
    // git's HEAD and the (single) folder of branches, which commit watches follow.
    assert.ok(inotifyWatches(server.child.pid!) <= 6, `${inotifyWatches(server.child.pid!)} inotify watches`);
  });

  it('ends on SIGTERM while it is still starting up', async () => {
    server = new ServerProcess(repo);
    await server.initialize();
    server.child.kill('SIGTERM');
    const exit = await server.exitWithin(PROMPT_MS);
    assert.deepEqual(exit, { code: 0, signal: null }, `an orderly exit; stderr: ${server.stderr.slice(-1000)}`);
  });
});
