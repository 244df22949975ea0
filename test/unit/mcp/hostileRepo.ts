import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TempRepo } from '../git/repoFixture';

export interface HostileRepoSize {
  /** Tags in packed-refs (cheap: one line each). */
  packedTags: number;
  /** Loose tags, one file each under .git/refs/tags. */
  looseTags: number;
  /** Folders (each with a file) under the ignored build/ and node_modules/ trees. */
  ignoredFolders: number;
}

/** A repository with a few tracked folders, many tags and large git-ignored trees. */
export function hostileRepo(size: HostileRepoSize): TempRepo {
  const repo = new TempRepo(true, 'pc-fswatch-');
  const head = repo.commit('start', {
    '.gitignore': 'build/\nnode_modules/\n*.log\n',
    'src/auth/login.ts': 'export const login = 1;\n',
    'src/util/strings.ts': 'export const s = 1;\n',
    'docs/adr/0001-use-git.md': '# Use git\n',
  });
  const packed = ['# pack-refs with: peeled fully-peeled sorted'];
  for (let i = 0; i < size.packedTags; i++) packed.push(`${head} refs/tags/packed-${String(i).padStart(6, '0')}`);
  writeFileSync(join(repo.dir, '.git', 'packed-refs'), packed.join('\n') + '\n');
  const tags = join(repo.dir, '.git', 'refs', 'tags');
  mkdirSync(tags, { recursive: true });
  for (let i = 0; i < size.looseTags; i++) writeFileSync(join(tags, `loose-${i}`), head + '\n');
  for (const tree of ['build', 'node_modules/pkg']) {
    for (let i = 0; i < size.ignoredFolders; i++) {
      const dir = join(repo.dir, tree, `d${i}`, 'inner');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'f.js'), 'x\n');
    }
  }
  return repo;
}
