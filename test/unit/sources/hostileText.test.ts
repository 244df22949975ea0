import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adrShapeOf } from '../../../src/core/sources/decisions/adrShape';
import { isAdrCandidateName, isDecisionFolderName } from '../../../src/core/sources/decisions/adrDiscovery';
import { extractLinks } from '../../../src/core/sources/decisions/adrLinks';
import { logEntries, parseAdr } from '../../../src/core/sources/decisions/adrParser';
import { docCommentAt, packageTerms, withoutUrls } from '../../../src/core/sources/decisions/fileTerms';
import { scanInline } from '../../../src/core/sources/decisions/inlineRefs';
import { locateFailures } from '../../../src/core/sources/reports/failureSites';
import { isDocFile, isReleaseNotes, sectionsOf } from '../../../src/core/sources/docs/docsSource';
import {
  atxHeading,
  parseFrontMatter,
  splitSections,
  stripInline,
  summarize,
  withoutHtmlComments,
} from '../../../src/core/sources/docs/markdown';
import { splitRstSections } from '../../../src/core/sources/docs/restructuredText';
import { compoundTerms, splitWords, stem, termsOf } from '../../../src/core/sources/docs/textTerms';

/**
 * Repository text is hostile: every pattern that reads it must finish on input built to make a
 * backtracking pattern take quadratic or worse time. Each case is 100,000 characters or more and
 * checks the result; a pattern that backtracks would not finish within the test timeout.
 */
const N = 100_000;
const run = (c: string, n = N) => c.repeat(Math.ceil(n / c.length));

describe('patterns on hostile repository text', function () {
  this.timeout(20000);

  it('ATX headings: a heading followed by a long run of blanks and a stray character', () => {
    assert.deepEqual(atxHeading('# Setup' + ' '.repeat(N) + 'x'), { level: 1, text: 'Setup' + ' '.repeat(N) + 'x' });
    assert.deepEqual(atxHeading('## Title ' + '#'.repeat(N) + ' x'), {
      level: 2,
      text: 'Title ' + '#'.repeat(N) + ' x',
    });
    const hashes = atxHeading('### ' + run('# '));
    assert.equal(hashes?.level, 3);
    assert.equal(hashes?.text, run('# ').trimEnd().slice(0, -1).trimEnd(), 'the last # is a closing sequence');
    assert.equal(atxHeading(run('#')), undefined);
    const sections = splitSections('# Setup' + ' '.repeat(N) + 'x\n\nbody\n');
    assert.deepEqual(
      [sections[0].heading, sections[0].body],
      ['Setup', 'body'],
      'shown headings are cut to the inline limit',
    );
  });

  it('fences, setext underlines and list markers over long runs', () => {
    const text = run('```\n~~~\n', N) + '# After\n';
    assert.ok(splitSections(text).length >= 1);
    assert.deepEqual(
      splitSections('Title\n' + run('=') + '\n\nbody').map((s) => [s.heading, s.level]),
      [['Title', 1]],
    );
    assert.deepEqual(
      splitSections(run('- ') + '\n' + run('-') + '\n').map((s) => s.level),
      [0],
    );
  });

  it('front matter: unclosed, long keys, long values, many dashes', () => {
    assert.equal(parseFrontMatter('---\n' + run('a: b\n')), undefined);
    assert.equal(parseFrontMatter('---\n' + run('k') + ': v\n---\n')?.data[run('k')], 'v');
    assert.deepEqual(parseFrontMatter('---\ntags: [' + run('a,') + ']\n---\n')?.data.tags.length, N / 2);
    assert.equal(parseFrontMatter('---\ntitle: x\n' + run('-- \n') + '---\nbody')?.body, 'body');
    assert.equal(
      parseFrontMatter('---\ntitle: |\n' + run('  a\n') + 'status: accepted\n---\n')?.data.status,
      'accepted',
    );
    assert.equal(
      (parseFrontMatter('---\ntitle: >\n' + run('  word\n') + '---\n')?.data.title as string).length,
      Math.ceil(N / 7) * 5 - 1,
    );
  });

  it('inline markdown: unclosed brackets, parentheses, emphasis and tags', () => {
    for (const c of ['![', '[', '](', '`', '**', '__', '*a', '<', '[a][', '](a ']) {
      assert.equal(typeof stripInline(run(c)), 'string', c);
    }
    assert.equal(stripInline('[' + run('a') + '](x)'), '[' + run('a').slice(0, 3999), 'cut to the inline limit first');
    assert.equal(stripInline('**bold** and <b>tag</b>'), 'bold and tag');
  });

  it('summaries: long runs of sentence ends and fences', () => {
    assert.equal(summarize(run('.')).length <= 240, true);
    assert.equal(summarize(run('a.')), (run('a.').slice(0, 239) + '…').slice(0, 240));
    assert.equal(summarize(run('```\n') + 'x'), 'x', 'fences opened and closed in turn');
    assert.equal(summarize('```\n' + run('a\n')), '', 'an unclosed fence holds the rest');
    assert.equal(summarize('First. ' + run('!?')), 'First.', 'a second sentence too long to add is left out');
  });

  it('HTML comments: unclosed and many openers', () => {
    assert.equal(withoutHtmlComments('a<!--' + run('x\n')), 'a' + '\n'.repeat(N / 2));
    assert.equal(withoutHtmlComments(run('<!--')).length, 0);
  });

  it('reStructuredText titles over long adornment runs', () => {
    assert.deepEqual(
      splitRstSections('Title\n' + run('=') + '\n\nbody\n').map((s) => s.heading),
      ['Title'],
    );
    assert.deepEqual(
      splitRstSections(run('=\n')).map((s) => s.level),
      [0],
    );
  });

  it('record fields: status, date, supersedes, titles and links', () => {
    const adr = parseAdr(
      '0001-x.md',
      '# 1. ' +
        run('a') +
        '\n\n' +
        'Status:' +
        ' '.repeat(N) +
        'accepted\n' +
        '- Supersedes: [' +
        run('[') +
        '\n' +
        'Date: ' +
        run('9') +
        '\n',
    );
    assert.equal(adr.status, 'accepted');
    assert.equal(adr.date, undefined);
    assert.equal(parseAdr('x.md', '# ADR' + ' '.repeat(N) + ':\n').title.startsWith('ADR'), true);
    assert.equal(parseAdr('x.md', '## Status\n\nsuperseded by ' + run('[a](') + '\n').status, 'superseded');
    assert.equal(parseAdr('x.md', run('\n') + 'Status: proposed\n').status, 'proposed');
  });

  it('series titles and the entries of a decision log', () => {
    assert.equal(parseAdr('BB-1-x.md', '# BB-1)' + ' '.repeat(N) + '\n').title.startsWith('BB-1'), true);
    // A heading is read up to a bounded length; within it, the separator is found in one pass.
    assert.equal(parseAdr('BB-1-x.md', '# BB-1' + '\t'.repeat(N) + 'x\n').title, 'BB-1');
    assert.equal(parseAdr('BB-1-x.md', '# BB-1' + ' '.repeat(200) + 'x\n').title, 'x');
    const entry = '## 1. a\n\nStatus: accepted\n\n';
    assert.equal(
      logEntries(parseAdr('x.md', run(entry) + '## ADR-' + ' '.repeat(N) + '\n').sectionList).length,
      Math.ceil(N / entry.length),
    );
    assert.equal(
      logEntries(parseAdr('x.md', '## 1' + ' '.repeat(N) + '-\n\nStatus: x\n## 2' + '\t'.repeat(N) + '\n').sectionList)
        .length,
      0,
    );
    assert.equal(compoundTerms(run('aB')).length, 0);
  });

  it('paths, links and identifiers named in a record', () => {
    const links = extractLinks(
      run('a/') +
        '!\n' +
        run('](') +
        '\n' +
        run('a.') +
        ',\n' +
        ' ' +
        run('a/', 3000) +
        'b.ts' +
        run('.', 500) +
        '\n' +
        run('aA') +
        '\n',
      1,
      'docs/adr',
    );
    assert.ok(links.paths.every((p) => p.text.length <= 4000));
    assert.ok(links.camelWords.size <= 1);
    assert.deepEqual(
      extractLinks('See `src/a.ts`' + run(' ') + '.', 1, 'docs').paths.map((p) => p.text),
      ['src/a.ts'],
    );
  });

  it('references in code comments: long word runs before .md, many slashes, DECISION notes', () => {
    assert.deepEqual(scanInline('// ' + run('a') + '.md').refs, []);
    assert.deepEqual(
      scanInline('// ' + run('a/') + '0003-x.md').refs.map((r) => r.path?.endsWith('/0003-x.md')),
      [true],
    );
    assert.equal(scanInline('// ' + run('ADR-1 ')).refs.length, Math.ceil(N / 6));
    assert.equal(scanInline('// DECISION:' + ' '.repeat(N) + 'keep it\n').notes[0].text, 'keep it');
    assert.deepEqual(scanInline(run('*/ ')).refs, []);
  });

  it('record shape: status lines, underlines and bold headings', () => {
    assert.deepEqual(adrShapeOf('x.md', 'Status' + run(':') + ' accepted\n' + run('*') + '\n'), {
      numbered: false,
      content: 1,
      titled: false,
      otherKind: false,
    });
    assert.deepEqual(adrShapeOf('x.md', 'Status' + run(' ') + 'x\n').content, 0);
    assert.equal(adrShapeOf('x.md', '| Status' + run(' ') + 'x\n' + '| **Status:**' + run(' ') + '\n').content, 0);
    assert.equal(
      parseAdr('x.md', '# X\n\n' + run('|') + '\n' + run('| Status ') + '\n|---|\n' + run('| a ') + '\n').status,
      'unknown',
    );
    assert.deepEqual(adrShapeOf(run('1') + '-x.md', '# T\n\n**Context' + run(':') + '**\n\n**Decision**\n').content, 2);
  });

  it('runs at the end of a field, links that never close, slashes and nested test names', () => {
    assert.equal(parseAdr('0001-x.md', '# X\n\nStatus: accepted ' + run('*') + 'x\n').status, 'accepted');
    assert.equal(
      parseAdr('0001-x.md', '# X\n\n## Status\n\nSuperseded by [](' + run('\u0000') + ']([)]()\n').status,
      'superseded',
    );
    assert.ok(extractLinks('See `src' + run('/') + 'a/`.', 1, 'docs').paths.length <= 1);
    const root = mkdtempSync(join(tmpdir(), 'pc-hostile-'));
    try {
      writeFileSync(join(root, 'a.test.ts'), "it('adds up', () => {});\n");
      const name = run('\t') + '\u0000\t>\tadds up';
      const [located] = locateFailures(
        root,
        [
          {
            id: '1',
            report: 'r.xml',
            format: 'junit',
            name,
            testFile: 'a.test.ts',
            message: 'boom',
            reportLine: 1,
            time: 0,
          },
        ],
        ['a.test.ts'],
      );
      assert.deepEqual(located.test, { path: 'a.test.ts', line: 1 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('names of folders and files', () => {
    assert.equal(isDecisionFolderName(run('aB')), false);
    assert.equal(isAdrCandidateName(run('a-') + 'template.md'), false);
    assert.equal(isReleaseNotes(run('changelog/') + 'x'), true);
    assert.equal(isReleaseNotes(run('a/') + 'changelogx.md'), false);
    assert.equal(isReleaseNotes('docs/' + run('a') + '/CHANGELOG.md'), true);
    assert.equal(isDocFile(run('docs/') + 'a.md'), true);
  });

  it('doc sections: path tokens with many dots and slashes', () => {
    const [s] = sectionsOf(
      'docs/a.md',
      '# A\n\nsee ' + run('a.') + ' and x/' + run('a.') + 'ts and `' + run('b') + '`\n',
    );
    assert.ok(s.paths.length <= 1);
    assert.ok(s.code.has(run('b')));
  });

  it('words: capitals, digits, URLs, stems, package names and comments', () => {
    assert.equal(splitWords(run('A')).length, 1);
    assert.equal(splitWords(run('aB')).length, N / 2 + 1, 'a, Ba, Ba, …, B');
    assert.deepEqual(termsOf(run('1 ')), []);
    assert.equal(stem(run('s')).length > 0, true);
    assert.equal(withoutUrls('https://' + run('a')), ' ');
    assert.equal(withoutUrls(run('http:// ')).trim(), '');
    assert.equal(packageTerms('@' + run('ab/')).length, Math.ceil(N / 3));
    assert.equal(
      docCommentAt(run('// c\n') + 'function f() {}\n', N / 5 + 1).split('\n').length,
      29,
      'at most the 29 lines above',
    );
  });
});
