import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The per-workspace state directory shared by every adapter (extension, CLI, MCP server), so a
 * subscription made in one shows up in the others. Never inside the user's repository.
 */
export function resolveStateDir(root: string, override?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (override) return resolve(override);
  if (env.PROACTIVE_CONTEXT_STATE_DIR) return resolve(env.PROACTIVE_CONTEXT_STATE_DIR);
  return join(stateBaseDir(env), 'proactive-context', rootKey(root));
}

/** Short stable key for a root: a hash of its real path. */
export function rootKey(root: string): string {
  let real = resolve(root);
  try {
    real = realpathSync(real);
  } catch {
    // A root that does not exist yet still gets a stable key.
  }
  return createHash('sha256').update(real).digest('hex').slice(0, 16);
}

function stateBaseDir(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') return env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support');
  return env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
}

/** Turns a path (absolute or root-relative) into a root-relative, forward-slash path, or undefined if outside. */
export function toRelative(root: string, p: string): string | undefined {
  const abs = isAbsolute(p) ? p : resolve(root, p);
  const rel = relative(resolve(root), abs);
  if (rel === '') return '';
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/**
 * Finds a wasm file shipped next to the bundle (dist/), falling back to the package inside
 * node_modules when running from compiled sources (tests).
 */
export function locateAsset(fileName: string, packagePath: string): string {
  const candidates = [
    join(__dirname, fileName),
    join(__dirname, '..', fileName),
    join(__dirname, '..', 'dist', fileName),
  ];
  for (const c of candidates) if (existsSync(c)) return c;
  try {
    return require.resolve(packagePath);
  } catch {
    // Walk up from this file looking for node_modules (compiled output under out/).
    let dir = __dirname;
    for (let i = 0; i < 8; i++) {
      const p = join(dir, 'node_modules', packagePath);
      if (existsSync(p)) return p;
      dir = dirname(dir);
    }
  }
  throw new Error(`Cannot find ${fileName}; the build should copy it next to the bundle.`);
}
