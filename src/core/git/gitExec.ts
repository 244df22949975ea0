import { spawn } from 'node:child_process';

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
 * Options that every call gets: file names come out unquoted (unicode stays readable), no pager,
 * no colour, no optional locks so that reads never fight the user's own git commands.
 */
const BASE_ARGS = ['-c', 'core.quotepath=false', '-c', 'color.ui=false', '--no-pager', '--no-optional-locks'];

function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' };
}

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
   * If it throws, git is stopped and the call fails ('exit').
   */
  onData: (chunk: Buffer) => void;
}

/** Runs git and hands stdout to onData chunk by chunk; never throws. */
export function streamGit(args: readonly string[], options: GitStreamOptions): Promise<Omit<GitResult, 'stdout'>> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ ok: false, stderr: '', code: null, failure: 'aborted' });
      return;
    }
    let settled = false;
    const err: Buffer[] = [];
    let failure: GitFailure | undefined;
    const child = spawn('git', [...BASE_ARGS, ...args], { cwd: options.cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const finish = (code: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (!failure && code !== 0) failure = 'exit';
      resolve({ ok: !failure, stderr: Buffer.concat(err).toString('utf8'), code, failure });
    };
    const kill = (why: GitFailure): void => {
      if (!failure) failure = why;
      child.kill('SIGKILL');
    };
    const onAbort = (): void => kill('aborted');
    const timer = setTimeout(() => kill('timeout'), options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      try {
        options.onData(chunk);
      } catch (e) {
        kill(e instanceof OutputTooLarge ? 'too-large' : 'exit');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (e: NodeJS.ErrnoException) => {
      failure = e.code === 'ENOENT' ? 'git-missing' : failure ?? 'exit';
      finish(null);
    });
    child.on('close', (code) => finish(code));
    // Git may exit before reading all of its input.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}
