import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore from 'ignore';
import { Refusal } from './refusal';

/** Why a path was refused; the message is meant for the user. */
export class WorkspacePathError extends Refusal<'outside_workspace' | 'secret' | 'invalid'> {
  override readonly name = 'WorkspacePathError';
}

/**
 * Turns a user-given path (root-relative or absolute) into a root-relative forward-slash path,
 * refusing anything that leaves the workspace lexically.
 */
export function normalizeWorkspacePath(root: string, input: string): string {
  const raw = input.trim();
  if (!raw) throw new WorkspacePathError('invalid', 'A file path is required.');
  if (raw.includes('\0')) throw new WorkspacePathError('invalid', 'The path contains a NUL character.');
  const base = resolve(root);
  const abs = isAbsolute(raw) ? resolve(raw) : resolve(base, raw);
  // A name that is not UTF-8 (Latin-1 bytes) arrives with U+FFFD in place of its bytes and can never
  // be opened by that name: say so now rather than "missing" at every turn.
  if (raw.includes('\uFFFD') && !existsSync(abs)) {
    throw new WorkspacePathError(
      'invalid',
      `"${raw}" has a character that is not valid UTF-8 (shown as \uFFFD); such a file name cannot be read. Rename the file to a UTF-8 name.`,
    );
  }
  const rel = relative(base, abs);
  if (rel === '') throw new WorkspacePathError('invalid', `"${raw}" is the workspace folder itself, not a file.`);
  if (rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) {
    // An absolute path may name the workspace through its real path (/private/tmp vs /tmp).
    const viaReal = isAbsolute(raw) ? relativeToRealRoot(base, abs) : undefined;
    if (viaReal) return viaReal;
    throw new WorkspacePathError(
      'outside_workspace',
      `"${raw}" is outside the workspace folder; only files inside it can be used.`,
    );
  }
  return rel.split(sep).join('/');
}

function relativeToRealRoot(root: string, abs: string): string | undefined {
  try {
    const realRoot = realpathSync(root);
    let probe = abs;
    const tail: string[] = [];
    while (!existsSync(probe)) {
      const up = dirname(probe);
      if (up === probe) return undefined;
      tail.unshift(probe.slice(up.length).replace(/^[\\/]+/, ''));
      probe = up;
    }
    const rel = relative(realRoot, join(realpathSync(probe), ...tail));
    if (!rel || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) return undefined;
    return rel.split(sep).join('/');
  } catch {
    return undefined;
  }
}

/**
 * Checks that a root-relative path, after following symlinks, still lies inside the workspace.
 * A path that does not exist yet is judged by its nearest existing parent.
 */
export function assertRealPathInside(root: string, rel: string): void {
  let realRoot: string;
  try {
    realRoot = realpathSync(resolve(root));
  } catch {
    realRoot = resolve(root);
  }
  let probe = resolve(root, rel);
  while (!existsSync(probe)) {
    const up = dirname(probe);
    if (up === probe) return;
    probe = up;
  }
  let real: string;
  try {
    real = realpathSync(probe);
  } catch {
    return;
  }
  const r = relative(realRoot, real);
  if (r === '..' || r.startsWith('..' + sep) || isAbsolute(r)) {
    throw new WorkspacePathError(
      'outside_workspace',
      `"${rel}" is a link that leads outside the workspace folder; it cannot be used.`,
    );
  }
}

const SECRET_NAMES: readonly RegExp[] = [
  /^\.env$/i,
  /^\.env\..+/i,
  /\.pem$/i,
  /\.key$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)/i,
  /\.p12$/i,
  /\.pfx$/i,
  /^\.npmrc$/i,
  /^\.netrc$/i,
  /^\.pgpass$/i,
  /^credentials/i,
  /secret/i,
];

/** Names that only count as secrets when git ignores the file too (an ignored `token.json` is a credential; a tracked `tokenizer.ts` is code). */
const SECRET_HINTS_WHEN_IGNORED: readonly RegExp[] = [
  /token/i,
  /passw(or)?d/i,
  /private/i,
  /credential/i,
  /\.keystore$/i,
  /\.jks$/i,
  /\.kdbx$/i,
  /\.ovpn$/i,
  /^auth\.json$/i,
  /\.gpg$/i,
  /\.asc$/i,
];

/** Returns why a root-relative path is treated as a secret, or undefined when it is not one. */
export function secretReason(root: string, rel: string): string | undefined {
  const parts = rel.split('/');
  const name = parts[parts.length - 1];
  if (parts.includes('.git')) return `"${rel}" is inside the .git folder, which can hold credentials`;
  for (const re of SECRET_NAMES) if (re.test(name)) return `"${rel}" looks like a secret (${name})`;
  if (SECRET_HINTS_WHEN_IGNORED.some((re) => re.test(name)) && isGitIgnored(root, rel)) {
    return `"${rel}" is ignored by git and its name suggests it holds credentials`;
  }
  return undefined;
}

/** Refuses secrets with a WorkspacePathError. */
export function assertNotSecret(root: string, rel: string): void {
  const why = secretReason(root, rel);
  if (why) throw new WorkspacePathError('secret', `${why}; secrets are never read into chat context.`);
}

/** Reads the .gitignore files from the root down to the file's folder (and .git/info/exclude); no git process. */
export function isGitIgnored(root: string, rel: string): boolean {
  const parts = rel.split('/');
  const rules: { dir: string; text: string }[] = [];
  const read = (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  };
  const exclude = read(join(root, '.git', 'info', 'exclude'));
  if (exclude) rules.push({ dir: '', text: exclude });
  for (let i = 0; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    const text = read(join(root, dir, '.gitignore'));
    if (text) rules.push({ dir, text });
  }
  for (const { dir, text } of rules) {
    const sub = dir ? rel.slice(dir.length + 1) : rel;
    try {
      if (ignore().add(text).ignores(sub)) return true;
    } catch {
      // A malformed .gitignore line must not break subscriptions.
    }
  }
  return false;
}

/** One step for both subscribing and reading: lexical confinement, secrets, symlink confinement. */
export function checkWorkspaceFile(root: string, input: string): string {
  const rel = normalizeWorkspacePath(root, input);
  assertNotSecret(root, rel);
  assertRealPathInside(root, rel);
  // A link's own name proves nothing (innocent.txt -> .env): the secret rules apply to where it leads.
  const realRel = realRelativePath(root, rel);
  const why = realRel && realRel !== rel ? secretReason(root, realRel) : undefined;
  if (why)
    throw new WorkspacePathError(
      'secret',
      `"${rel}" is a link to ${realRel}, and ${why}; secrets are never read into chat context.`,
    );
  return rel;
}

/** The root-relative path a link resolves to, or undefined when the file does not exist (yet). */
function realRelativePath(root: string, rel: string): string | undefined {
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(resolve(root, rel));
    realRoot = realpathSync(resolve(root));
  } catch {
    // Missing files are reported when they are read.
    return undefined;
  }
  const r = relative(realRoot, real);
  if (!r || r === '..' || r.startsWith('..' + sep) || isAbsolute(r)) return undefined;
  return r.split(sep).join('/');
}
