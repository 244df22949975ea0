import { strict as assert } from 'node:assert';
import { translatedDocs } from '../../../src/core/sources/docs/translations';

describe('translated documents', () => {
  it('knows a translation by a language in its name or folder, when the original is in the workspace', () => {
    const docs = [
      'README.md',
      'doc/README-ja.md', // the root README's, in another folder
      'README_CN.md',
      'README.zh-CN.md',
      'components/button/index.en-US.md',
      'components/button/index.zh-CN.md', // beside its English version
      'docs/guide.md',
      'docs/pt-br/guide.md',
      'i18n/en/intro.md',
      'i18n/ko/intro.md',
      'notes-es.md', // no notes.md
      'docs/ja/only-here.md',
      'docs/design.md',
      'docs/index.en.md', // English is the original, never a translation
    ];
    assert.deepEqual([...translatedDocs(docs)].sort(), [
      'README.zh-CN.md',
      'README_CN.md',
      'components/button/index.zh-CN.md',
      'doc/README-ja.md',
      'docs/pt-br/guide.md',
      'i18n/ko/intro.md',
    ]);
  });

  it('reads names that only look like a language tag as names', () => {
    assert.deepEqual(
      [
        ...translatedDocs([
          'docs/release-notes.md',
          'docs/release.md',
          'docs/api_v2.md',
          'docs/api.md',
          'docs/go-to.md',
          'docs/go.md',
        ]),
      ],
      [],
    );
  });
});
