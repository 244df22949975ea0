import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { defaultTokenFile, loadOrCreateToken } from '../../../src/mcp/httpToken';

describe('MCP HTTP bearer token file', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pc-token-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a private 32-byte base64url token on first use and reuses it after', () => {
    const file = defaultTokenFile(join(dir, 'state'));
    const first = loadOrCreateToken(file);
    assert.equal(first.created, true);
    assert.match(first.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(first.token, 'base64url').length, 32);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(readFileSync(file, 'utf8'), first.token + '\n');

    const again = loadOrCreateToken(file);
    assert.deepEqual(again, { token: first.token, file, created: false });
    // No temporary files are left behind.
    assert.deepEqual(readdirSync(join(dir, 'state')), ['mcp-token']);
  });

  it('refuses a token file others can read, and a file that holds no token, changing neither', () => {
    const open = join(dir, 'open-token');
    writeFileSync(open, 'a'.repeat(43) + '\n', { mode: 0o644 });
    chmodSync(open, 0o644);
    assert.throws(() => loadOrCreateToken(open), /can be read by other users \(mode 644\); run 'chmod 600/);
    assert.equal(statSync(open).mode & 0o777, 0o644);

    const junk = join(dir, 'junk-token');
    writeFileSync(junk, 'short\n', { mode: 0o600 });
    assert.throws(() => loadOrCreateToken(junk), /does not hold a bearer token .*delete it to make a new one/);
    assert.equal(readFileSync(junk, 'utf8'), 'short\n');
  });

  it('gives every one of several processes starting at once the same token', async () => {
    const file = join(dir, 'state', 'mcp-token');
    const script = `process.stdout.write(require(${JSON.stringify(join(__dirname, '..', '..', '..', 'src', 'mcp', 'httpToken.js'))}).loadOrCreateToken(process.argv[1]).token)`;
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => promisify(execFile)(process.execPath, ['-e', script, file])),
    );
    const tokens = new Set(runs.map((r) => r.stdout));
    assert.deepEqual([...tokens], [readFileSync(file, 'utf8').trim()]);
  });
});
