import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The file, in the workspace's state directory, that holds the HTTP server's bearer token. */
const TOKEN_FILE_NAME = 'mcp-token';

/** 32 random bytes in base64url, as generated; a token file may hold any printable token of at least this strength. */
const TOKEN_PATTERN = /^[A-Za-z0-9_~.+/=-]{32,512}$/;

class TokenFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenFileError';
  }
}

export interface BearerToken {
  token: string;
  file: string;
  /** True when this call wrote the file (the token is then shown once). */
  created: boolean;
}

export function defaultTokenFile(stateDir: string): string {
  return join(stateDir, TOKEN_FILE_NAME);
}

/**
 * Reads the bearer token from `file`, or creates it (32 random bytes, base64url, mode 0600) when
 * there is none. Creation is atomic: the token is written to a private temporary file and linked
 * into place, so a concurrent reader never sees a half-written token and two servers starting at
 * once end up with the same one.
 */
export function loadOrCreateToken(file: string): BearerToken {
  const existing = readToken(file);
  if (existing !== undefined) return { token: existing, file, created: false };
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, token + '\n', { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another server created it first: use theirs.
    const theirs = readToken(file);
    if (theirs === undefined) throw new TokenFileError(`${file} vanished while it was being created; start again.`);
    return { token: theirs, file, created: false };
  } finally {
    unlinkSync(tmp);
  }
  return { token, file, created: true };
}

/** The token in `file`, undefined when there is no file; a clear error when the file is not a private, well-formed token. */
function readToken(file: string): string | undefined {
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new TokenFileError(`${file} is not a file; remove it so a token can be created there.`);
    // Like ssh with private keys: a token others can read protects nothing.
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      throw new TokenFileError(
        `${file} can be read by other users (mode ${(st.mode & 0o777).toString(8)}); run 'chmod 600 ${file}' or delete it to make a new token.`,
      );
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const token = text.trim();
  if (!TOKEN_PATTERN.test(token))
    throw new TokenFileError(
      `${file} does not hold a bearer token (32 to 512 token characters on one line); delete it to make a new one.`,
    );
  return token;
}
