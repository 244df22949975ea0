import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { TempRepo } from '../../git/repoFixture';

export const CLI = join(__dirname, '..', '..', '..', '..', 'src', 'cli', 'main.js');
/** The thin launcher (dist/hook.js once bundled). */
export const LAUNCHER = join(__dirname, '..', '..', '..', '..', 'src', 'cli', 'hookMain.js');
const FIXTURES = join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'hooks');

/** A repository whose decision record governs src/a.ts; src/b.ts is governed by nothing. */
export function governedRepo(): TempRepo {
  const repo = new TempRepo(true, 'pc-hook-');
  repo.commit('Add pricing', {
    'src/a.ts': 'export function price(x: number): number {\n  return x * 0.5;\n}\n',
    'src/b.ts': 'export const b = 1;\n',
    'docs/adr/0001-cap-discounts.md':
      '# 1. Cap discounts at fifty percent\n\nDate: 2026-01-10\n\n## Status\n\nAccepted\n\n## Context\n\nDiscounts above half the price lost money.\n\n' +
      '## Decision\n\nDiscounts are capped at fifty percent in `src/a.ts`; never compute a price below half.\n\n## Consequences\n\nPricing code must clamp.\n',
  });
  return repo;
}

/** Removes the repository and every state folder the tests made beside it (`<state>-…`). */
export function disposeRepo(repo: TempRepo): void {
  const prefix = basename(repo.stateDir);
  for (const name of readdirSync(dirname(repo.stateDir)))
    if (name.startsWith(`${prefix}-`)) rmSync(join(dirname(repo.stateDir), name), { recursive: true, force: true });
  repo.dispose();
}

/** A documented input of a host, for this repository (and this session, when given). */
export function fixtureInput(
  host: string,
  event: string,
  root: string,
  change: (input: Record<string, unknown>) => void = () => undefined,
): string {
  const text = readFileSync(join(FIXTURES, host, `${event}.input.json`), 'utf8')
    .split('__ROOT__')
    .join(root);
  const input = JSON.parse(text) as Record<string, unknown>;
  change(input);
  return JSON.stringify(input);
}

/** The documented output shape of a host's event. */
export function fixtureOutput(host: string, name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, host, `${name}.output.json`), 'utf8')) as Record<string, unknown>;
}

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `proactive-context hook …` in a real process, fed `input` on stdin. */
export function runHookCli(args: string[], input: string, env: NodeJS.ProcessEnv = {}): HookRun {
  const r = spawnSync(process.execPath, [CLI, 'hook', ...args], {
    input,
    encoding: 'utf8',
    timeout: 120000,
    env: { ...process.env, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The thin launcher in a real process, fed `input` on stdin; waits for it to exit. */
export function runLauncher(args: string[], input: string, env: NodeJS.ProcessEnv = {}): HookRun {
  const r = spawnSync(process.execPath, [LAUNCHER, ...args], {
    input,
    encoding: 'utf8',
    timeout: 120000,
    env: { ...process.env, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function runCli(args: string[]): HookRun {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Same keys, recursively, and the same type for every leaf (the fixture's strings stand for any string). */
export function sameShape(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null) return typeof actual === typeof expected;
  if (typeof actual !== 'object' || actual === null) return false;
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const keys = Object.keys(e).sort();
  return JSON.stringify(Object.keys(a).sort()) === JSON.stringify(keys) && keys.every((k) => sameShape(a[k], e[k]));
}

/** Starts `mcp --http` on a free port; resolves with its port once it prints its URL. */
export function startHttpServer(
  root: string,
  stateDir: string,
): Promise<{ port: number; pid: number; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [CLI, 'mcp', '--http', '--port', '0', '--json', '--root', root, '--state-dir', stateDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      const port = Number(new URL((JSON.parse(line) as { url: string }).url).port);
      const stop = (): Promise<void> =>
        new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGKILL');
        });
      resolve({ port, pid: child.pid ?? 0, stop });
    });
    child.once('exit', (code) => reject(new Error(`mcp --http exited with ${code}`)));
  });
}
