import { TempRepo } from './repoFixture';

/** Names git and the index must both take literally: spaces, unicode, a leading dash, glob characters, a tab. */
export const ODD_NAMES = ['with space.ts', 'ünïcødé/naïve файл.ts', '-dash.ts', 'pages/[id].ts', 'tab\there.ts'];

/**
 * A repository with what real histories have: a branch merged with a merge commit a forge wrote
 * (and one merged from main into it), a rename, a deleted file, a binary file, an empty commit, odd file names,
 * subjects that start with the record mark or hold unicode, several authors and a commit whose
 * committer date is older than its parent's (clock skew). Dates run from 100 days ago.
 */
export function awkwardHistory(): TempRepo {
  const repo = new TempRepo();
  repo.commit('start', { 'src/a.ts': 'a1\n', 'src/b.ts': 'b1\n', 'docs/readme.md': '# r\n' });
  repo.commit('odd names', Object.fromEntries(ODD_NAMES.map((n) => [n, `${n}\n`])));
  repo.commit('\u0001 subject that starts with the record mark', { 'src/a.ts': 'a1\na2\n' });
  repo.git('checkout', '-q', '-b', 'feature');
  repo.commit('feature: touch b', { 'src/b.ts': 'b1\nb2\n', 'src/c.ts': 'c1\n' });
  repo.git('checkout', '-q', 'main');
  repo.commit('main moves on — ünïcødé subject', { 'src/a.ts': 'a1\na2\na3\n', 'pages/[id].ts': 'route\n' });
  repo.git('checkout', '-q', 'feature');
  repo.git('merge', '-q', '--no-ff', '-m', 'merge main into feature', 'main');
  repo.commit('feature: more', { 'src/c.ts': 'c1\nc2\n', 'with space.ts': 'spaced\n' });
  repo.git('checkout', '-q', 'main');
  // As a forge writes it: what was merged is the body's first line.
  repo.git(
    'merge',
    '-q',
    '--no-ff',
    '-m',
    'Merge pull request #12 from someone/feature',
    '-m',
    'Touch b and add c',
    'feature',
  );
  repo.git('mv', 'src/b.ts', 'src/bee.ts');
  repo.git('commit', '-q', '-m', 'rename b to bee');
  repo.commit('add a binary file', { 'assets/logo.bin': '\u0000\u0001\u0002binary\u0000' });
  repo.git('rm', '-q', 'docs/readme.md');
  repo.git('commit', '-q', '-m', 'remove the readme');
  repo.git('commit', '-q', '--allow-empty', '-m', 'an empty commit');
  // Committed "before" its parent: a rebase across machines with skewed clocks does this.
  repo.commit('skewed clock', { 'src/a.ts': 'a1\na2\na3\na4\n', '-dash.ts': 'dash\n' }, -3);
  repo.commit('after the skew', { 'src/bee.ts': 'bee\n', 'tab\there.ts': 'tab\n' }, 5);
  repo.write('src/c.ts', 'c by zoë\n');
  repo.git('add', 'src/c.ts');
  repo.git('-c', 'user.name=Zoë Ångström', '-c', 'user.email=zoe@example.com', 'commit', '-q', '-m', 'another author');
  repo.commit('by the first author again', { 'src/a.ts': 'final\n', 'ünïcødé/naïve файл.ts': 'ü\n' });
  return repo;
}
