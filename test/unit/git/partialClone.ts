import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TempRepo } from './repoFixture';
import { script } from './processes';

/**
 * A repository and a partial clone of it (`--filter=blob:none` over file://): the clone has the
 * blobs of HEAD only. The clone's remote runs `uploadPack`, whose invocations are logged.
 */
export class PartialClone {
  readonly origin = new TempRepo(true, 'pc-origin-', Math.floor(Date.now() / 1000) - 20 * 86400);
  readonly dir: string;
  private readonly tools = mkdtempSync(join(tmpdir(), 'pc-remote-'));
  /** One line per start of the remote's upload-pack: its pid and process group. */
  readonly log = join(this.tools, 'upload-pack.log');

  constructor() {
    const o = this.origin;
    o.git('config', 'uploadpack.allowFilter', 'true');
    o.git('config', 'uploadpack.allowAnySHA1InWant', 'true');
    for (let i = 0; i < 4; i++)
      o.commit(`change ${i}`, {
        'src/a.ts': `export const a = ${i};\n`.repeat(i + 1),
        'src/b.ts': `export const b = ${i};\n`.repeat(i + 1),
      });
    o.commit('docs', { 'README.md': 'hello\n' });
    this.dir = join(this.tools, 'clone');
    execFileSync('git', ['clone', '-q', '--filter=blob:none', `file://${o.dir}`, this.dir]);
    this.remote('exec git upload-pack "$@"');
  }

  /** The remote's upload-pack becomes `body` (after logging its start). */
  remote(body: string): void {
    const path = script(join(this.tools, 'upload-pack.sh'), `echo "$$ $(ps -o pgid= -p $$)" >> '${this.log}'\n${body}`);
    execFileSync('git', ['config', 'remote.origin.uploadpack', path], { cwd: this.dir });
  }

  /** Starts of the remote's upload-pack so far. */
  fetches(): { pid: number; pgid: number }[] {
    let text = '';
    try {
      text = readFileSync(this.log, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [pid, pgid] = l.trim().split(/\s+/).map(Number);
        return { pid, pgid };
      });
  }

  /** A blob of an older commit, which the clone does not have. */
  missingBlob(): string {
    return execFileSync('git', ['rev-parse', 'HEAD~2:src/a.ts'], { cwd: this.dir, encoding: 'utf8' }).trim();
  }

  dispose(): void {
    this.origin.dispose();
    rmSync(this.tools, { recursive: true, force: true });
  }
}
