import { strict as assert } from 'node:assert';
import { mergeTitle, parseMergeTitles } from '../../../src/core/git/mergeTitles';

describe('the titles of merges a forge made', () => {
  it('takes the pull request title from the body, with its number', () => {
    assert.equal(
      mergeTitle(
        'Merge pull request #4162 from alphagov/valour-orgs',
        'Add VALOUR organisations to the schema [WHIT-3883]\n',
      ),
      'Add VALOUR organisations to the schema [WHIT-3883] (#4162)',
    );
    assert.equal(
      mergeTitle('Merged in feature/login (pull request #12)', 'Log in with a passkey\n\nApproved-by: Ada\n'),
      'Log in with a passkey (#12)',
    );
    assert.equal(
      mergeTitle(
        "Merge branch 'login' into 'main'",
        'Log in with a passkey\n\nCloses #3\n\nSee merge request group/app!57',
      ),
      'Log in with a passkey (!57)',
    );
  });

  it('falls back to the branch when the body gives no title', () => {
    assert.equal(
      mergeTitle('Merge pull request #4163 from alphagov/update-deploy-workflow', ''),
      'update-deploy-workflow (#4163)',
    );
    assert.equal(
      mergeTitle('Merge pull request #9 from someone/dependabot/npm/lodash-4.17.21', '\n\n'),
      'dependabot/npm/lodash-4.17.21 (#9)',
    );
    assert.equal(
      mergeTitle('Merge pull request #5 from feature', '# Conflicts:\n#\tsrc/a.ts\n'),
      'feature (#5)',
      'a conflict list is not a title',
    );
    assert.equal(
      mergeTitle('Merge pull request #6 from o/b', 'Co-authored-by: Ada <ada@example.com>'),
      'b (#6)',
      'a trailer is not a title',
    );
    assert.equal(mergeTitle('Merged in hotfix (pull request #7)', ''), 'hotfix (#7)');
  });

  it('keeps a title that already names the request, and shortens a very long one', () => {
    assert.equal(mergeTitle('Merge pull request #8 from o/b', 'Fix the total (#8)'), 'Fix the total (#8)');
    const long = mergeTitle('Merge pull request #10 from o/b', 'x'.repeat(5000));
    assert.ok(long && long.length <= 210 && long.endsWith('… (#10)'), long);
  });

  it('leaves other merges and ordinary commits alone', () => {
    for (const subject of [
      "Merge branch 'main' of github.com:o/r",
      "Merge branch 'v3.9.x'",
      "Merge remote-tracking branch 'origin/main' into main",
      'Merged PR 42: Add the report',
      'fix: total (#12)',
      `Merge pull request #1 from ${'a'.repeat(500)}`,
    ]) {
      assert.equal(mergeTitle(subject, 'Some body'), undefined, subject);
    }
    assert.equal(
      mergeTitle("Merge branch 'x' into 'main'", 'A title but no merge request line'),
      undefined,
      'a plain merge into main',
    );
  });

  it('reads git log records of commit id, subject and body, bodies with newlines included', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const c = 'c'.repeat(40);
    const out = `${a}\0Merge pull request #1 from o/x\0First title\nmore body\n\0${b}\0Merge branch 'main'\0\0${c}\0Merge pull request #2 from o/y\0`;
    assert.deepEqual(
      [...parseMergeTitles(out)],
      [
        [a, 'First title (#1)'],
        [c, 'y (#2)'],
      ],
    );
  });
});
