import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { openEngine } from '../../../src/core/engine';
import { nullLogger } from '../../../src/core/logger';
import { readSource, type ReadOptions } from '../../../src/core/snapshot/fetchSnapshot';
import { sha256, SnapshotError, type SnapshotRefusal } from '../../../src/core/snapshot/format';
import type { TempRepo } from '../git/repoFixture';
import { buildRepo, cloneAt, indexed, tempDir } from './snapshotFixture';

const TOKEN = 'team-secret-token';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function refusedWith(p: Promise<unknown>, reason: SnapshotRefusal, message: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof SnapshotError, String(err));
    assert.equal(err.reason, reason, err.message);
    assert.match(err.message, message);
    return true;
  });
}

describe('team index snapshot: fetching over HTTP', function () {
  this.timeout(120_000);
  let repo: TempRepo;
  let out: string;
  let data: Buffer;
  let server: Server;
  let base: string;
  /** The Authorization header each path was asked with. */
  const seen = new Map<string, string | undefined>();
  const stalled: ServerResponse[] = [];
  const dirs: string[] = [];
  const opts = (o: Partial<ReadOptions> = {}): ReadOptions => ({ timeoutMs: 60_000, maxBytes: 1e8, ...o });

  before(async () => {
    repo = buildRepo(6);
    out = tempDir('pc-snap-http-');
    const ci = cloneAt(repo, 'HEAD~1');
    const ciState = tempDir('pc-snap-http-ci-');
    dirs.push(ci, ciState);
    const { service } = await indexed(ci, ciState);
    await service.workspace.exportSnapshot(join(out, 's.pcsnap'), 'test');
    service.dispose();
    data = readFileSync(join(out, 's.pcsnap'));
    ({ server, base } = await listen((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      seen.set(path, req.headers.authorization);
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401).end('token needed');
        return;
      }
      if (path === '/s.pcsnap') res.writeHead(200, { 'content-length': data.length }).end(data);
      else if (path === '/s.pcsnap.sha256') res.writeHead(200).end(`${sha256(data)}  s.pcsnap\n`);
      else if (path === '/bad.pcsnap') res.writeHead(200, { 'content-length': data.length }).end(data);
      else if (path === '/bad.pcsnap.sha256') res.writeHead(200).end(`${'1'.repeat(64)}  bad.pcsnap\n`);
      else if (path === '/slow.pcsnap') {
        // Headers and a first piece, then nothing: only the timeout ends it.
        res.writeHead(200, { 'content-length': data.length });
        res.write(data.subarray(0, 10));
        stalled.push(res);
      } else if (path === '/cut.pcsnap') {
        res.writeHead(200, { 'content-length': data.length });
        res.write(data.subarray(0, Math.floor(data.length / 2)), () => res.destroy());
      } else if (path === '/huge.pcsnap') res.writeHead(200, { 'content-length': 5e9 }).end();
      else if (path === '/moved.pcsnap') {
        // To another origin: localhost is not 127.0.0.1 to a browser or to us.
        res.writeHead(302, { location: `${base.replace('127.0.0.1', 'localhost')}/elsewhere.pcsnap` }).end();
      } else res.writeHead(404).end();
    }));
  });

  after(async () => {
    for (const r of stalled) r.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    repo.dispose();
    for (const d of [out, ...dirs]) rmSync(d, { recursive: true, force: true });
  });

  it('downloads with the token and returns the published hash beside it', async () => {
    const progress: number[] = [];
    const got = await readSource(`${base}/s.pcsnap`, opts({ token: TOKEN, onProgress: (n) => progress.push(n) }));
    assert.ok(got.data.equals(data));
    assert.equal(got.published, sha256(data));
    assert.equal(progress.at(-1), data.length);
    assert.equal(seen.get('/s.pcsnap'), `Bearer ${TOKEN}`);
  });

  it('refuses without a token and with a wrong one', async () => {
    await refusedWith(readSource(`${base}/s.pcsnap`, opts()), 'unauthorized', /HTTP 401.*needs a token/);
    await refusedWith(
      readSource(`${base}/s.pcsnap`, opts({ token: 'wrong' })),
      'unauthorized',
      /HTTP 401.*token was not accepted/,
    );
  });

  it('times out on a response that stalls', async () => {
    await refusedWith(
      readSource(`${base}/slow.pcsnap`, opts({ token: TOKEN, timeoutMs: 300 })),
      'timeout',
      /timed out after 300 ms/,
    );
  });

  it('refuses a body cut short, and one larger than the limit', async () => {
    await refusedWith(readSource(`${base}/cut.pcsnap`, opts({ token: TOKEN })), 'truncated', /ended early/);
    await refusedWith(readSource(`${base}/huge.pcsnap`, opts({ token: TOKEN })), 'oversized', /too large/);
    await refusedWith(readSource(`${base}/s.pcsnap`, opts({ token: TOKEN, maxBytes: 100 })), 'oversized', /too large/);
  });

  it('never sends the token to another origin after a redirect', async () => {
    await refusedWith(readSource(`${base}/moved.pcsnap`, opts({ token: TOKEN })), 'unauthorized', /needs a token/);
    assert.equal(seen.get('/moved.pcsnap'), `Bearer ${TOKEN}`);
    assert.ok(seen.has('/elsewhere.pcsnap'));
    assert.equal(seen.get('/elsewhere.pcsnap'), undefined);
  });

  it('refuses plain http beyond this machine, and other schemes', async () => {
    await refusedWith(readSource('http://example.invalid/s.pcsnap', opts()), 'insecure-url', /use https/);
    await refusedWith(readSource('ftp://example.invalid/s.pcsnap', opts()), 'insecure-url', /not supported/);
  });

  it('reads decisions and docs while the snapshot is on its way', async () => {
    const state = tempDir('pc-snap-http-overlap-');
    dirs.push(state);
    let giveToken: (t: string | undefined) => void = () => undefined;
    const token = new Promise<string | undefined>((r) => (giveToken = r));
    // Only a safety net: without the overlap the download would wait for the sources, and they for it.
    const giveUp = setTimeout(() => giveToken(undefined), 60_000);
    let docsRead = false;
    const logger = {
      ...nullLogger,
      info: (message: string) => {
        if (!message.startsWith('docs: ')) return;
        docsRead = true;
        giveToken(TOKEN);
      },
    };
    const engine = await openEngine({
      root: repo.dir,
      stateDir: state,
      logger,
      snapshot: { location: `${base}/s.pcsnap`, token: () => token },
    });
    try {
      const summary = await engine.indexer.refreshAll();
      assert.ok(docsRead);
      assert.equal(summary.snapshot?.status, 'applied', summary.snapshot?.message);
    } finally {
      clearTimeout(giveUp);
      engine.dispose();
    }
  });

  it('loads a snapshot from a URL with the token, and refuses one that does not match its published hash', async () => {
    const state = tempDir('pc-snap-http-state-');
    const state2 = tempDir('pc-snap-http-state2-');
    dirs.push(state, state2);
    const token = () => Promise.resolve(TOKEN);
    const a = await indexed(repo.dir, state, { location: `${base}/s.pcsnap`, token });
    a.service.dispose();
    assert.equal(a.summary.snapshot?.status, 'applied', a.summary.snapshot?.message);
    assert.equal(a.summary.snapshot?.source, `${base}/s.pcsnap`);
    const b = await indexed(repo.dir, state2, { location: `${base}/bad.pcsnap?sig=secret`, token });
    b.service.dispose();
    assert.equal(b.summary.snapshot?.status, 'refused');
    assert.equal(b.summary.snapshot?.reason, 'hash-mismatch');
    // The query (a signature, say) is left out of what is shown.
    assert.equal(b.summary.snapshot?.source, `${base}/bad.pcsnap`);
    assert.equal(b.summary.history.mode, 'rebuild');
  });
});
