// Clones labelled public repositories and checks out their recorded commits, for the checkout
// scripts of bench/decisions and bench/panel. Git runs with argument arrays (no shell).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const DEFAULT_SOURCE = 'https://github.com/{repo}.git';

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

function hasCommit(dest, commit) {
  return git(['cat-file', '-e', `${commit}^{commit}`], dest).ok;
}

function checkoutOne({ repo, commit }, outDir, template) {
  const dest = path.join(outDir, repo.replace('/', '__'));
  const source = resolveSource(template, repo);

  if (existsSync(dest)) {
    if (!git(['rev-parse', '--git-dir'], dest).ok)
      return { status: 'error', detail: `${dest} exists but is not a git checkout` };
    if (git(['rev-parse', 'HEAD'], dest).out === commit) return { status: 'ok', detail: 'already at commit' };
  } else {
    const c = git(['clone', '--quiet', '--no-checkout', source, dest]);
    if (!c.ok) return { status: 'error', detail: `clone failed: ${c.err}` };
  }

  if (!hasCommit(dest, commit)) {
    // Fetch the exact commit first (works on hosts that allow it), then everything.
    git(['fetch', '--quiet', source, commit], dest);
    if (!hasCommit(dest, commit))
      git(['fetch', '--quiet', '--tags', source, '+refs/heads/*:refs/remotes/origin/*'], dest);
    if (!hasCommit(dest, commit)) return { status: 'error', detail: `commit ${commit} not found in ${source}` };
  }
  const co = git(['checkout', '--quiet', '--detach', commit], dest);
  if (!co.ok) return { status: 'error', detail: `checkout failed: ${co.err}` };
  return { status: 'ok', detail: 'checked out' };
}

/**
 * Brings every repository to its commit under `out` (DIR/<owner>__<name>), prints a line for each
 * and exits: 0 when all are there, 1 otherwise.
 */
export function checkoutAll(repos, out, template) {
  mkdirSync(out, { recursive: true });
  if (repos.length === 0) {
    console.error('no labelled repositories found');
    process.exit(1);
  }
  let failed = 0;
  for (const r of repos) {
    let result;
    try {
      result = checkoutOne(r, out, template);
    } catch (e) {
      result = { status: 'error', detail: e.message };
    }
    if (result.status !== 'ok') failed++;
    console.log(
      `${result.status === 'ok' ? 'ok   ' : 'FAIL '} ${r.set.padEnd(8)} ${r.repo.padEnd(48)} ${r.commit.slice(0, 12)}  ${result.detail}`,
    );
  }
  console.log(`${repos.length - failed} of ${repos.length} repositories at their labelled commit in ${out}`);
  process.exit(failed ? 1 : 0);
}
