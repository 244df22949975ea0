/**
 * What every git call is told so that reading a repository runs nothing the repository configures
 * and fetches nothing: fixed `-c` settings, and per repository, the filter and diff drivers its
 * configuration names, each turned off. See docs/security.md, "What git runs".
 */

/** The transports git knows; each is refused, so that a lazy fetch of a partial clone fails at once. */
const TRANSPORTS = ['file', 'git', 'ssh', 'http', 'https', 'ext', 'fd'];

/**
 * Settings every call gets (after the caller's environment and the repository's files, so they win).
 * Empty program settings make git run nothing: it fails the one command that would have run it.
 */
export const SAFE_CONFIG: readonly string[] = [
  'core.quotepath=false',
  'color.ui=false',
  // Programs a read may start: the file system monitor, hooks, a pager, askpass and credential helpers.
  'core.fsmonitor=false',
  `core.hooksPath=${process.platform === 'win32' ? 'NUL' : '/dev/null'}`,
  'core.alternateRefsCommand=',
  'core.pager=cat',
  'core.askPass=',
  'credential.helper=',
  // Diff programs (each diff also gets --no-ext-diff --no-textconv) and signature checks.
  'diff.external=',
  'log.showSignature=false',
  'gpg.program=',
  'gpg.openpgp.program=',
  'gpg.x509.program=',
  'gpg.ssh.program=',
  // No network: a missing blob of a partial clone is an error, never a fetch.
  'protocol.allow=never',
  ...TRANSPORTS.map((t) => `protocol.${t}.allow=never`),
];

/** What git's configuration of one repository changes about reading it. */
export interface RepoProfile {
  /** Objects may be missing locally and would be fetched on first use (`--filter` clone). */
  partialClone: boolean;
  /**
   * Settings that turn off each filter and diff driver the configuration defines. Given through
   * GIT_CONFIG_KEY_n, not `-c`: a driver's name may hold `=`, which `-c` would split on.
   */
  overrides: readonly (readonly [string, string])[];
}

export const EMPTY_PROFILE: RepoProfile = { partialClone: false, overrides: [] };

const FALSE = new Set(['false', 'no', 'off', '0']);

/**
 * Reads `git config -z --list` records: "key\nvalue" (or "key" for a key with no value),
 * NUL-separated. Sections and variables come lower-cased, driver names as written.
 */
export function parseProfile(out: string): RepoProfile {
  const filters = new Set<string>();
  const diffs = new Set<string>();
  let partialClone = false;
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const nl = rec.indexOf('\n');
    const key = nl < 0 ? rec : rec.slice(0, nl);
    const value = nl < 0 ? 'true' : rec.slice(nl + 1);
    if (key === 'extensions.partialclone') partialClone ||= value !== '';
    else if (key.startsWith('remote.') && key.endsWith('.promisor')) partialClone ||= !FALSE.has(value.toLowerCase());
    else {
      const dot = key.indexOf('.');
      const last = key.lastIndexOf('.');
      if (last <= dot + 1) continue;
      const name = key.slice(dot + 1, last);
      if (key.startsWith('filter.')) filters.add(name);
      else if (key.startsWith('diff.')) diffs.add(name);
    }
  }
  const overrides: [string, string][] = [];
  for (const f of filters)
    overrides.push(
      [`filter.${f}.clean`, ''],
      [`filter.${f}.smudge`, ''],
      [`filter.${f}.process`, ''],
      [`filter.${f}.required`, 'false'],
    );
  for (const d of diffs) overrides.push([`diff.${d}.textconv`, ''], [`diff.${d}.command`, '']);
  return { partialClone, overrides };
}

/**
 * The environment of a git call: no prompts, no pager, no askpass or external diff from the caller's
 * environment, no lazy fetch (git 2.44 and later; older ones are stopped by the refused transports),
 * and the profile's overrides appended to any GIT_CONFIG_COUNT settings already there.
 */
export function gitEnv(profile: RepoProfile, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...base,
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_LAZY_FETCH: '1',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
  };
  for (const name of [
    'GIT_ASKPASS',
    'SSH_ASKPASS',
    'GIT_EXTERNAL_DIFF',
    'GIT_SSH',
    'GIT_SSH_COMMAND',
    'GIT_PROXY_COMMAND',
  ])
    delete env[name];
  let n = Number(env.GIT_CONFIG_COUNT);
  if (!Number.isSafeInteger(n) || n < 0) n = 0;
  for (const [key, value] of profile.overrides) {
    env[`GIT_CONFIG_KEY_${n}`] = key;
    env[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  if (n) env.GIT_CONFIG_COUNT = String(n);
  return env;
}
