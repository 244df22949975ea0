// Packages dist/proactive-context.vsix with vsce. The marketplace README is the repository's README
// without its screenshots: images are linked relative to the repository, which a .vsix cannot carry.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const readme = readFileSync('README.md', 'utf8')
  .split('\n')
  .filter((line) => !/^!\[[^\]]*\]\((?!https?:)[^)]+\)\s*$/.test(line))
  .join('\n');
const readmePath = join('dist', 'README.md');
writeFileSync(readmePath, readme);
const vsce = join('node_modules', '@vscode', 'vsce', 'vsce');
const r = spawnSync(
  process.execPath,
  [vsce, 'package', '--no-dependencies', '--readme-path', readmePath, '--out', join('dist', 'proactive-context.vsix')],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
