import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SnapshotSource } from '../../core/api/types';
import { UsageError, type FlagSpec, type ParsedArgs } from '../args';

/** The options of every command that opens the index: a team snapshot to start from. */
export const SNAPSHOT_FLAGS: Record<string, FlagSpec> = {
  snapshot: {
    type: 'string',
    value: 'FILE|URL',
    description:
      'start from a team index snapshot (a file, or an https URL; {commit} tries HEAD and its nearest ancestors); default $PROACTIVE_CONTEXT_SNAPSHOT',
  },
  'snapshot-sha256': {
    type: 'string',
    value: 'HEX',
    description: "the snapshot's published SHA-256 (default: FILE.sha256 beside it, if any)",
  },
};

/**
 * The snapshot source from --snapshot or $PROACTIVE_CONTEXT_SNAPSHOT; the bearer token comes only
 * from $PROACTIVE_CONTEXT_SNAPSHOT_TOKEN, never from a flag (it would show in the process list).
 */
export function snapshotSourceOf(args: ParsedArgs, env: NodeJS.ProcessEnv = process.env): SnapshotSource | undefined {
  const location = (args.flags.snapshot as string | undefined) ?? (env.PROACTIVE_CONTEXT_SNAPSHOT || undefined);
  const sha256 =
    (args.flags['snapshot-sha256'] as string | undefined) ?? (env.PROACTIVE_CONTEXT_SNAPSHOT_SHA256 || undefined);
  if (sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(sha256))
    throw new UsageError('--snapshot-sha256 needs a SHA-256 hash of 64 hexadecimal digits');
  if (location === undefined) {
    if (args.flags['snapshot-sha256'] !== undefined) throw new UsageError('--snapshot-sha256 needs --snapshot');
    return undefined;
  }
  if (!location.trim()) throw new UsageError('--snapshot needs a file or a URL');
  const token = env.PROACTIVE_CONTEXT_SNAPSHOT_TOKEN || undefined;
  return {
    location,
    ...(sha256 ? { sha256: sha256.toLowerCase() } : {}),
    ...(token ? { token: () => Promise.resolve(token) } : {}),
  };
}

/** This build's version, from the package.json it ships with (next to dist/, or the repository's). */
export function productVersion(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) {
      try {
        const pkg = JSON.parse(readFileSync(p, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'proactive-context' && pkg.version) return pkg.version;
      } catch {
        // Another package's file, or a damaged one: keep looking up.
      }
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
