// The folders a harness run opens and the extensions it loads besides ours: the demo workspace with
// its git history, and the test-only extensions under test/extensions/.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, fail } from './toolchain.mjs';

/**
 * Prepares a workspace folder at `dest` (which must not exist yet): the demo project made by
 * `node demo-workspace/setup.mjs <dest>` (files plus their git history), a plain copy of
 * demo-workspace/ when it has no setup.mjs, or a small git repo when there is no demo at all.
 */
export function prepareWorkspace(dest, { env = process.env } = {}) {
  const demo = path.join(REPO_ROOT, 'demo-workspace');
  const setup = path.join(demo, 'setup.mjs');
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  if (fs.existsSync(setup)) {
    const r = spawnSync(process.execPath, [setup, dest], { cwd: path.dirname(dest), env, encoding: 'utf8' });
    if (r.status !== 0)
      fail(`node demo-workspace/setup.mjs ${dest} failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
    return dest;
  }
  if (fs.existsSync(demo)) {
    fs.cpSync(demo, dest, { recursive: true, filter: (src) => !src.split(path.sep).includes('node_modules') });
    return dest;
  }
  fs.mkdirSync(path.join(dest, 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(dest, 'README.md'),
    '# Scratch workspace\n\nMade by the test harness because demo-workspace/ does not exist.\n',
  );
  fs.writeFileSync(
    path.join(dest, 'src', 'math.ts'),
    'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  );
  const gitEnv = {
    GIT_AUTHOR_NAME: 'Harness',
    GIT_AUTHOR_EMAIL: 'harness@example.invalid',
    GIT_COMMITTER_NAME: 'Harness',
    GIT_COMMITTER_EMAIL: 'harness@example.invalid',
    ...env,
  };
  const git = (...args) => {
    const r = spawnSync('git', args, { cwd: dest, env: gitEnv, encoding: 'utf8' });
    if (r.status !== 0) fail(`git ${args.join(' ')} failed in ${dest}: ${r.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Initial commit');
  return dest;
}

/** Test-only extensions, one folder each under test/extensions/ (e.g. fake-lm, an offline chat model). */
export function testExtensionFolders() {
  const root = path.join(REPO_ROOT, 'test', 'extensions');
  return (fs.existsSync(root) ? fs.readdirSync(root) : [])
    .sort()
    .map((d) => path.join(root, d))
    .filter((d) => fs.existsSync(path.join(d, 'package.json')));
}

/**
 * Puts unpacked test extensions into an extensions folder the way an install would lay them out
 * (<publisher>.<name>-<version>/). The web workbench takes only one extensionDevelopmentPath (its
 * payload becomes a Map), so extra extensions come in as installed ones. Call before the server
 * starts: it registers what it finds in a folder that has no extensions.json yet.
 */
export function addTestExtensions(extensionsDir, folders = testExtensionFolders()) {
  fs.mkdirSync(extensionsDir, { recursive: true });
  for (const folder of folders) {
    const pkg = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
    fs.cpSync(folder, path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`), { recursive: true });
  }
  // An existing extensions.json would hide folders it does not list.
  fs.rmSync(path.join(extensionsDir, 'extensions.json'), { force: true });
  return folders;
}
