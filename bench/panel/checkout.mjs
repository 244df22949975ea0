#!/usr/bin/env node
// Clone every repository labelled in labels/ and check out the recorded commit,
// for `proactive-context eval panel --repos DIR --labels bench/panel/labels`.
//
//   node bench/panel/checkout.mjs --out DIR [--source TEMPLATE] [--set reported|check|all] [--only owner/name]
//
// TEMPLATE is expanded per repository with {repo} (owner/name), {owner} and {name}.
// The default clones from GitHub: https://github.com/{repo}.git
// A local template also works, e.g. /srv/mirrors/{owner}+{name}: a bare git
// directory, a work tree, or a folder holding a bare repository in repo/.
//
// Each repository lands in DIR/<owner>__<name>. A checkout already at the
// recorded commit is left alone, so the script can be re-run at any time.
// Git is always run with argument arrays (no shell).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_SOURCE = 'https://github.com/{repo}.git';

function usage(code) {
  console.log(
    'usage: node checkout.mjs --out DIR [--source TEMPLATE] [--set reported|check|all] [--only owner/name]\n' +
      `  TEMPLATE placeholders: {repo} {owner} {name}; default ${DEFAULT_SOURCE}`,
  );
  process.exit(code);
}

function parseArgs(argv) {
  const args = { out: undefined, source: DEFAULT_SOURCE, set: 'all', only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) usage(2);
      return argv[++i];
    };
    if (a === '--out') args.out = path.resolve(next());
    else if (a === '--source') args.source = next();
    else if (a === '--set') args.set = next();
    else if (a === '--only') args.only = next();
    else if (a === '--help' || a === '-h') usage(0);
    else {
      console.error(`unknown argument: ${a}`);
      usage(2);
    }
  }
  if (!args.out || !['reported', 'check', 'all'].includes(args.set)) usage(2);
  return args;
}

function git(args, cwd) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { ok: r.status === 0, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() };
}

function isGitDir(dir) {
  return existsSync(path.join(dir, 'HEAD')) && existsSync(path.join(dir, 'objects'));
}

// Expand the template; for a local path, find the git directory inside it.
function resolveSource(template, repo) {
  const [owner, name] = repo.split('/');
  const src = template.replaceAll('{repo}', repo).replaceAll('{owner}', owner).replaceAll('{name}', name);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(src) || /^[^/]+@[^:]+:/.test(src)) return src;
  const local = path.resolve(src);
  if (!existsSync(local) || !statSync(local).isDirectory()) return src; // let git report it
  if (isGitDir(local) || existsSync(path.join(local, '.git'))) return local;
  const inner = path.join(local, 'repo');
  if (existsSync(inner) && isGitDir(inner)) return inner;
  return local;
}

// Each label file names its repository, commit and set (`reported` unless it says `check`).
function loadRepos(set, only) {
  const dir = path.join(here, 'labels');
  const repos = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
    const data = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
    const which = data.set ?? 'reported';
    if ((only && data.repo !== only) || (set !== 'all' && which !== set)) continue;
    repos.push({ repo: data.repo, commit: data.commit, set: which });
  }
  return repos;
}

function hasCommit(dest, commit) {
  return git(['cat-file', '-e', `${commit}^{commit}`], dest).ok;
}

function checkoutOne({ repo, commit }, outDir, template) {
  const dest = path.join(outDir, repo.replace('/', '__'));
  const source = resolveSource(template, repo);

  if (existsSync(dest)) {
    if (!git(['rev-parse', '--git-dir'], dest).ok) return { status: 'error', detail: `${dest} exists but is not a git checkout` };
    if (git(['rev-parse', 'HEAD'], dest).out === commit) return { status: 'ok', detail: 'already at commit' };
  } else {
    const c = git(['clone', '--quiet', '--no-checkout', source, dest]);
    if (!c.ok) return { status: 'error', detail: `clone failed: ${c.err}` };
  }

  if (!hasCommit(dest, commit)) {
    // Fetch the exact commit first (works on hosts that allow it), then everything.
    git(['fetch', '--quiet', source, commit], dest);
    if (!hasCommit(dest, commit)) git(['fetch', '--quiet', '--tags', source, '+refs/heads/*:refs/remotes/origin/*'], dest);
    if (!hasCommit(dest, commit)) return { status: 'error', detail: `commit ${commit} not found in ${source}` };
  }
  const co = git(['checkout', '--quiet', '--detach', commit], dest);
  if (!co.ok) return { status: 'error', detail: `checkout failed: ${co.err}` };
  return { status: 'ok', detail: 'checked out' };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  mkdirSync(args.out, { recursive: true });
  const repos = loadRepos(args.set, args.only);
  if (repos.length === 0) {
    console.error('no labelled repositories found');
    process.exit(1);
  }
  let failed = 0;
  for (const r of repos) {
    let result;
    try {
      result = checkoutOne(r, args.out, args.source);
    } catch (e) {
      result = { status: 'error', detail: e.message };
    }
    if (result.status !== 'ok') failed++;
    console.log(`${result.status === 'ok' ? 'ok   ' : 'FAIL '} ${r.set.padEnd(8)} ${r.repo.padEnd(48)} ${r.commit.slice(0, 12)}  ${result.detail}`);
  }
  console.log(`${repos.length - failed} of ${repos.length} repositories at their labelled commit in ${args.out}`);
  process.exit(failed ? 1 : 0);
}

main();
