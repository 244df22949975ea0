import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { EMPTY_PROFILE, gitEnv, parseProfile, SAFE_CONFIG, type RepoProfile } from './repoConfig';

/** Why a git call produced nothing useful. */
export type GitFailure = 'git-missing' | 'timeout' | 'aborted' | 'exit' | 'too-large';

export interface GitRunOptions {
  cwd: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Stdout beyond this many bytes ends the process; the call fails with 'too-large'. */
  maxBytes?: number;
  /** Written to the process' stdin, then stdin is closed. */
  input?: string;
}

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  code: number | null;
  failure?: GitFailure;
}

export const DEFAULT_GIT_TIMEOUT_MS = 15_000;

/** Runs one git command; runGit, or a stand-in that counts or holds calls. */
export type GitRunner = (args: readonly string[], options: GitRunOptions) => Promise<GitResult>;

/**
 * Options that every call gets: the settings that keep the repository's configuration from running
 * anything (repoConfig.ts), no pager, no optional locks so that reads never fight the user's own
 * git commands.
 */
const BASE_ARGS = [...SAFE_CONFIG.flatMap((s) => ['-c', s]), '--no-pager', '--no-optional-locks'];

/**
 * After git exits, how long its output pipes may stay open: a child it left behind (a file system
 * monitor, a fetch) can hold them for ever. Then that child's process group is ended.
 */
const PIPE_GRACE_MS = 250;
/** And how long, after that, before the pipes are closed from this side (a holder outside the group). */
const PIPE_CLOSE_MS = 1000;
/** How long a stream's reader may work through chunks before the event loop gets a turn. */
const STREAM_SLICE_MS = 12;

const PROFILE_TIMEOUT_MS = 10_000;

/** Runs git with an argument array (never a shell) and returns its whole output; never throws. */
export async function runGit(args: readonly string[], options: GitRunOptions): Promise<GitResult> {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const out: Buffer[] = [];
  let outBytes = 0;
  const r = await streamGit(args, {
    ...options,
    onData: (chunk) => {
      outBytes += chunk.length;
      if (outBytes > maxBytes) throw new OutputTooLarge();
      out.push(chunk);
    },
  });
  return { ...r, stdout: r.failure === 'too-large' ? '' : Buffer.concat(out).toString('utf8') };
}

/** Thrown by an onData that wants no more output: the process is ended and the call fails with 'too-large'. */
class OutputTooLarge extends Error {}

export interface GitStreamOptions extends GitRunOptions {
  /**
   * Called with every chunk of stdout as it arrives; the whole output is never held in memory.
   * If it throws, git is stopped and the call fails ('exit', or 'too-large' for OutputTooLarge).
   */
  onData: (chunk: Buffer) => void;
}

/** Runs git and hands stdout to onData chunk by chunk; never throws. */
export async function streamGit(
  args: readonly string[],
  options: GitStreamOptions,
): Promise<Omit<GitResult, 'stdout'>> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  if (options.signal?.aborted) return { ok: false, stderr: '', code: null, failure: 'aborted' };
  const profile = await untilStopped(repoProfile(options.cwd), timeoutMs, options.signal);
  if (options.signal?.aborted) return { ok: false, stderr: '', code: null, failure: 'aborted' };
  // Without the profile the call would run the repository's drivers: it fails as the profile did.
  if (typeof profile === 'string') return { ok: false, stderr: '', code: null, failure: profile };
  return spawnGit(args, { ...options, timeoutMs: Math.max(1, timeoutMs - (Date.now() - started)) }, profile);
}

/** The promise's value, or why the call stopped first (its timeout or signal). */
function untilStopped<T>(
  value: Promise<T>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T | 'timeout' | 'aborted'> {
  return new Promise((resolve) => {
    const done = (v: T | 'timeout' | 'aborted'): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(v);
    };
    const onAbort = (): void => done('aborted');
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    void value.then(done);
  });
}

/** What the repository's configuration says about reading it (read again when a configuration file changes). */
export async function readRepoProfile(cwd: string): Promise<RepoProfile | undefined> {
  const p = await repoProfile(cwd);
  return typeof p === 'string' ? undefined : p;
}

interface CachedProfile {
  value: Promise<RepoProfile | GitFailure>;
  /** The configuration files read, and their stamp then; unset while reading, or when not to be kept. */
  files?: string[];
  stamp?: string;
}

const profiles = new Map<string, CachedProfile>();

/**
 * The repository's profile, from one `git config --list` per change of any configuration file it
 * came from (an added filter takes effect at the next call). A folder with no repository
 * configuration is read each time: `git init` may make one.
 */
function repoProfile(cwd: string): Promise<RepoProfile | GitFailure> {
  const hit = profiles.get(cwd);
  if (hit && (!hit.files || stampOf(hit.files) === hit.stamp)) return hit.value;
  const out: Buffer[] = [];
  const entry: CachedProfile = { value: Promise.resolve(EMPTY_PROFILE) };
  entry.value = spawnGit(
    ['config', '-z', '--list', '--show-scope', '--show-origin'],
    { cwd, timeoutMs: PROFILE_TIMEOUT_MS, onData: (c) => out.push(c) },
    EMPTY_PROFILE,
  ).then((r) => {
    if (r.failure && r.failure !== 'exit') {
      if (profiles.get(cwd) === entry) profiles.delete(cwd);
      return r.failure;
    }
    const listed = r.ok
      ? parseConfigList(Buffer.concat(out).toString('utf8'), cwd)
      : { text: '', files: [], local: false };
    if (listed.local) {
      entry.files = listed.files;
      entry.stamp = stampOf(listed.files);
    } else entry.files = [];
    entry.stamp ??= 'never';
    return parseProfile(listed.text);
  });
  profiles.delete(cwd);
  profiles.set(cwd, entry);
  if (profiles.size > 64) profiles.delete(profiles.keys().next().value as string);
  return entry.value;
}

/**
 * Reads `git config -z --list --show-scope --show-origin`: records of scope, origin, then
 * "key\nvalue". Gives the records in parseProfile's form, the files they came from (with the usual
 * global ones, which may not exist yet) and whether the repository has a configuration of its own.
 */
function parseConfigList(out: string, cwd: string): { text: string; files: string[]; local: boolean } {
  const tokens = out.split('\0');
  const records: string[] = [];
  const files = new Set<string>([
    join(homedir(), '.gitconfig'),
    join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'git', 'config'),
  ]);
  let local = false;
  for (let i = 0; i + 2 < tokens.length; i += 3) {
    const [scope, origin, record] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    records.push(record);
    if (scope === 'local' || scope === 'worktree') local = true;
    if (origin.startsWith('file:')) files.add(originFile(origin.slice(5), cwd));
  }
  return { text: records.join('\0'), files: [...files], local };
}

/** A relative origin is relative to the top of the work tree: the nearest folder up from cwd that has it. */
function originFile(path: string, cwd: string): string {
  if (isAbsolute(path)) return path;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, path))) return join(dir, path);
    if (dirname(dir) === dir) return resolve(cwd, path);
  }
}

function stampOf(files: readonly string[]): string {
  return files
    .map((f) => {
      const s = statSync(f, { throwIfNoEntry: false });
      return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : '-';
    })
    .join('|');
}

/** Git processes under way, each the leader of its own process group (on POSIX). */
const live = new Set<ChildProcess>();

/** Ends every git call under way and what each started; run when this process exits. */
export function killAllGit(): void {
  for (const child of live) killGroup(child);
}
process.once('exit', killAllGit);

function killGroup(child: ChildProcess): void {
  if (child.pid !== undefined && process.platform !== 'win32') {
    try {
      process.kill(-child.pid, 'SIGKILL');
      return;
    } catch {
      // No such group (all of it has ended): the leader itself, in case.
    }
  }
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function spawnGit(
  args: readonly string[],
  options: GitStreamOptions,
  profile: RepoProfile,
): Promise<Omit<GitResult, 'stdout'>> {
  return new Promise((resolve) => {
    let settled = false;
    let exited = false;
    let exitCode: number | null = null;
    const err: Buffer[] = [];
    let failure: GitFailure | undefined;
    // Its own process group, so that ending the call ends whatever git started too.
    const child = spawn('git', [...BASE_ARGS, ...args], {
      cwd: options.cwd,
      env: gitEnv(profile),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      detached: process.platform !== 'win32',
    });
    live.add(child);
    const timers: NodeJS.Timeout[] = [];
    const finish = (code: number | null): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdin.destroy();
      child.stdout.destroy();
      child.stderr.destroy();
      killGroup(child);
      live.delete(child);
      if (!failure && code !== 0) failure = 'exit';
      resolve({ ok: !failure, stderr: Buffer.concat(err).toString('utf8'), code, failure });
    };
    const kill = (why: GitFailure): void => {
      if (!failure) failure = why;
      killGroup(child);
      // Whoever else holds the pipes is not waited for.
      if (exited) finish(exitCode);
    };
    const onAbort = (): void => kill('aborted');
    timers.push(setTimeout(() => kill('timeout'), options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let sliceStarted = performance.now();
    child.stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      try {
        options.onData(chunk);
      } catch (e) {
        kill(e instanceof OutputTooLarge ? 'too-large' : 'exit');
        return;
      }
      // A long output (a whole history) is handed over as fast as git writes it, many chunks in one
      // turn of the event loop: after a slice of work the stream waits one turn, so the editor's
      // timers and messages run between chunks.
      if (performance.now() - sliceStarted >= STREAM_SLICE_MS) {
        child.stdout.pause();
        setImmediate(() => {
          sliceStarted = performance.now();
          if (!settled) child.stdout.resume();
        });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (e: NodeJS.ErrnoException) => {
      failure = e.code === 'ENOENT' ? 'git-missing' : (failure ?? 'exit');
      finish(null);
    });
    child.on('exit', (code) => {
      exited = true;
      exitCode = code;
      if (failure) return finish(code);
      // The pipes drain on their own unless a child git left behind holds them: then that child's
      // group is ended (they close and what was written is read), and at last they are closed here.
      timers.push(
        setTimeout(() => killGroup(child), PIPE_GRACE_MS),
        setTimeout(() => finish(code), PIPE_GRACE_MS + PIPE_CLOSE_MS),
      );
    });
    child.on('close', (code) => finish(code));
    // Git may exit before reading all of its input.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}
