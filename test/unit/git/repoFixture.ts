import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real git repository in a temp folder, with commits at controlled dates. */
export class TempRepo {
  readonly dir: string;
  private clock: number;

  /** `start`: Unix seconds the first commit is dated a day after (default: 100 days ago). */
  constructor(init = true, prefix = 'pc-git-', start = Math.floor(Date.now() / 1000) - 100 * 86400) {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
    this.clock = start;
    if (init) this.git('init', '-q', '-b', 'main');
  }

  git(...args: string[]): string {
    return execFileSync(
      'git',
      ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', '-c', 'commit.gpgsign=false', ...args],
      {
        cwd: this.dir,
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_DATE: `${this.clock} +0000`, GIT_COMMITTER_DATE: `${this.clock} +0000` },
      },
    );
  }

  write(path: string, content: string): void {
    const abs = join(this.dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }

  /** Writes the files, stages them and commits; returns the new HEAD. */
  commit(message: string, files: Record<string, string>, daysLater = 1): string {
    this.clock += daysLater * 86400;
    for (const [p, c] of Object.entries(files)) this.write(p, c);
    this.git('add', '--', ...Object.keys(files));
    this.git('commit', '-q', '-m', message);
    return this.head();
  }

  /** Stages everything in the work tree and commits it (an empty commit when there is nothing); returns the new HEAD. */
  commitAll(message: string, daysLater = 1): string {
    this.clock += daysLater * 86400;
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', message);
    return this.head();
  }

  /** Touches each file with a new line so that they all change in one commit. */
  change(message: string, paths: string[], daysLater = 1): string {
    const files: Record<string, string> = {};
    for (const p of paths) files[p] = `${p} ${message} ${this.clock}\n`;
    return this.commit(message, files, daysLater);
  }

  head(): string {
    return this.git('rev-parse', 'HEAD').trim();
  }

  /** Unix seconds of the last commit made. */
  get time(): number {
    return this.clock;
  }

  /** A state folder beside the repository (outside its work tree), removed with it. */
  get stateDir(): string {
    return `${this.dir}-state`;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}
