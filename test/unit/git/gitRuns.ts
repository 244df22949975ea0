import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * Counts the runs of the real git: a wrapper named `git`, put first on PATH, logs each call's
 * arguments and then runs the real one. `dispose` puts PATH back.
 */
export class GitRunLog {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pc-git-shim-'));
  private readonly log = join(this.dir, 'calls.log');
  private readonly savedPath = process.env.PATH;

  constructor() {
    writeFileSync(this.log, '');
    const realGit = execFileSync('which', ['git'], { encoding: 'utf8' }).trim();
    const shim = join(this.dir, 'git');
    writeFileSync(shim, `#!/bin/sh\necho "$*" >> '${this.log}'\nexec '${realGit}' "$@"\n`);
    chmodSync(shim, 0o755);
    process.env.PATH = `${this.dir}${delimiter}${this.savedPath ?? ''}`;
  }

  /** The runs so far, each as its arguments joined by spaces. */
  runs(): string[] {
    return readFileSync(this.log, 'utf8').split('\n').filter(Boolean);
  }

  dispose(): void {
    process.env.PATH = this.savedPath;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
