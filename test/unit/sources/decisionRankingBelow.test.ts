import { strict as assert } from 'node:assert';
import type { DecisionHit, DecisionRecord } from '../../../src/core/sources/decisions/decisionItems';
import { rankDecisions } from '../../../src/core/sources/decisions/decisionRanking';
import { prepareLinkable } from '../../../src/core/sources/decisions/decisionLinker';
import type { TermSource } from '../../../src/core/sources/decisions/fileTerms';
import { specificEvidence } from '../../../src/core/sources/decisions/linkEvidence';
import { adr } from './rankedRecords';

/** A link by words with its evidence. */
const byWords = (record: DecisionRecord, score: number, evidence: DecisionHit['evidence']): DecisionHit => ({
  adr: record,
  score,
  kind: 'text',
  reason: `${record.title}: ${JSON.stringify(evidence)}`,
  evidence,
});

const ranked = (hits: DecisionHit[]) =>
  rankDecisions({
    file: 'src/billing/invoiceExport.ts',
    hits,
    notes: [],
    unspecific: 0,
    successorOf: () => undefined,
    dateOf: () => undefined,
  });

/** The records the panel lists before "Show more". */
const rank = (hits: DecisionHit[]) =>
  ranked(hits)
    .filter((i) => i.meta?.folded !== true)
    .map((i) => i.title);

describe('decision ranking: records below another', () => {
  const invoice = adr(1, 'Invoice export');
  const named = byWords(invoice, 0.6, { kind: 'name', words: ['invoic'], source: 'name', inRecord: 'title' });

  it('shows a record that only mentions a word of the file name or definition only when no other record is shown', () => {
    const adjust = adr(3, 'Pre-authorisation adjustments');
    const mention = byWords(adjust, 0.55, { kind: 'name', words: ['amount'], source: 'name', inRecord: 'text' });
    assert.deepEqual(rank([mention]), ['ADR 0003: Pre-authorisation adjustments']);
    assert.deepEqual(rank([named, mention]), ['ADR 0001: Invoice export']);
    const imported = byWords(invoice, 0.6, { kind: 'import', words: ['stripe'] });
    assert.deepEqual(rank([imported, mention]), ['ADR 0001: Invoice export']);
    const symbolWord = byWords(adjust, 0.55, { kind: 'name', words: ['sign'], source: 'symbol' });
    assert.deepEqual(rank([named, symbolWord]), ['ADR 0001: Invoice export']);
  });

  it('keeps two records linked by the same rare word of the definition (`permanent-failure`)', () => {
    const notify = adr(5, 'Initial architecture for Notify integration');
    const delivery = adr(6, 'Email delivery responsibilities');
    const first = byWords(notify, 0.49, { kind: 'name', words: ['perman'], source: 'symbol' });
    const second = byWords(delivery, 0.48, { kind: 'name', words: ['perman'], source: 'symbol' });
    assert.deepEqual(rank([first, second]), [
      'ADR 0005: Initial architecture for Notify integration',
      'ADR 0006: Email delivery responsibilities',
    ]);
  });

  it('keeps such a record below another when it writes the word as code (`AppWorkload`)', () => {
    const projection = adr(4, 'Credentials projection');
    const asCode = byWords(projection, 0.55, {
      kind: 'name',
      words: ['appworkload'],
      source: 'name',
      inRecord: 'text',
      code: true,
    });
    const imported = byWords(invoice, 0.6, { kind: 'import', words: ['stripe'] });
    assert.deepEqual(rank([imported, asCode]), ['ADR 0001: Invoice export', 'ADR 0004: Credentials projection']);
    const symbolCode = byWords(projection, 0.55, {
      kind: 'name',
      words: ['appworkload'],
      source: 'symbol',
      code: true,
    });
    assert.deepEqual(rank([imported, symbolCode]), ['ADR 0001: Invoice export', 'ADR 0004: Credentials projection']);
  });

  it('shows a record linked by a code name the file uses only when no other record is shown', () => {
    const tenancy = adr(2, 'Tenancy');
    const uses = byWords(tenancy, 0.55, { kind: 'uses', words: ['tenantKey'] });
    assert.deepEqual(rank([uses]), ['ADR 0002: Tenancy']);
    assert.deepEqual(rank([named, uses]), ['ADR 0001: Invoice export']);
  });

  it('shows a record by a title word the file only defines or writes only when no other record is shown', () => {
    const hosting = adr(3, 'Server hosting');
    for (const source of ['definition', 'text', 'comment']) {
      const weak = byWords(hosting, 0.55, { kind: 'name', words: ['server'], source });
      assert.deepEqual(rank([weak]), ['ADR 0003: Server hosting'], source);
      assert.deepEqual(rank([named, weak]), ['ADR 0001: Invoice export'], source);
    }
    // Below the three records a group shows, a longer list keeps it in its place.
    const titledBy = (n: number, score: number, word: string) =>
      byWords(adr(n, `Record ${n}`), score, { kind: 'name', words: [word], source: 'symbol', inRecord: 'title' });
    const weak = byWords(hosting, 0.55, { kind: 'name', words: ['server'], source: 'definition' });
    const namesBilling: DecisionHit = { adr: adr(9, 'Record 9'), score: 0.57, kind: 'symbol', reason: 'names billing' };
    assert.deepEqual(rank([named, titledBy(8, 0.58, 'export'), namesBilling, weak]), [
      'ADR 0001: Invoice export',
      'ADR 0008: Record 8',
      'ADR 0009: Record 9',
      'ADR 0003: Server hosting',
    ]);
    // What the definition at the cursor is named after is evidence of what the file is: it stays.
    const symbol = byWords(hosting, 0.55, { kind: 'name', words: ['server'], source: 'symbol', inRecord: 'title' });
    assert.deepEqual(rank([named, symbol]), ['ADR 0001: Invoice export', 'ADR 0003: Server hosting']);
  });

  it("shows a record by a title word most records share (the project's own subject) only when no other record is shown", () => {
    const grouping = adr(4, 'Access policy grouping');
    const shared = byWords(grouping, 0.55, {
      kind: 'name',
      words: ['polici'],
      source: 'symbol',
      inRecord: 'title',
      shared: true,
    });
    assert.deepEqual(rank([shared]), ['ADR 0004: Access policy grouping']);
    assert.deepEqual(rank([named, shared]), ['ADR 0001: Invoice export']);
  });

  it("marks a title word that many records' titles share as the project's subject", () => {
    const evidence = (titleShare: number) =>
      specificEvidence({
        matched: ['polici'],
        from: new Map(),
        textOnly: new Set(),
        query: {
          terms: new Map([['polici', 1]]),
          sources: new Map([['polici', 'symbol']]),
          textCounts: new Map(),
        },
        title: new Set(['access', 'polici', 'group']),
        subject: 3,
        share: () => 0.01,
        titleShare: () => titleShare,
        file: 'policies/models.py',
      });
    assert.equal(evidence(0.3)?.shared, true);
    assert.equal(evidence(0.05)?.shared, undefined);
    assert.equal(evidence(0.05)?.kind, 'name');
  });

  it('marks the parts every interface is built of (`input`, `button`) and what every program does (`load`) as common words', () => {
    const evidence = (word: string) =>
      specificEvidence({
        matched: [word],
        from: new Map(),
        textOnly: new Set(),
        query: { terms: new Map([[word, 1]]), sources: new Map([[word, 'name']]), textCounts: new Map() },
        title: new Set([word, 'date']),
        subject: 3,
        share: () => 0.01,
        file: `src/components/Chips${word}.vue`,
      });
    for (const word of ['input', 'button', 'load', 'format', 'process', 'applic'])
      assert.equal(evidence(word)?.generic, true, word);
    assert.equal(evidence('chip')?.generic, undefined);
  });

  it('reads no topic in a folder that only holds code, or in where code lives', () => {
    const evidence = (matched: string[], sources: [string, TermSource][], title: string[], file: string) =>
      specificEvidence({
        matched,
        from: new Map(),
        textOnly: new Set(),
        query: { terms: new Map(sources.map(([t]) => [t, 1])), sources: new Map(sources), textCounts: new Map() },
        title: new Set(title),
        subject: 3,
        share: () => 0.001,
        file,
      });
    // `core/` and "Embedding the core"; `release/` and "Release ordering" still tells.
    assert.equal(evidence(['cor'], [['cor', 'folder']], ['embed', 'cor'], 'core/server/cluster.go'), undefined);
    assert.equal(evidence(['releas'], [['releas', 'folder']], ['releas', 'order'], 'release/notes.go')?.kind, 'folder');
    // `util` is short for "utility": "utilized" is another word, which alone names nothing here.
    const util = (title: string[]) =>
      specificEvidence({
        matched: title,
        from: new Map(title.map((t) => [t, 'util'])),
        textOnly: new Set(),
        query: { terms: new Map([['util', 1]]), sources: new Map([['util', 'name']]), textCounts: new Map() },
        title: new Set(title),
        subject: 3,
        share: () => 0.001,
        file: 'ui/lib/util.ts',
      });
    assert.equal(util(['utiliz']), undefined);
    assert.equal(util(['utiliti'])?.kind, 'name');
    // `cmd/` and `pkg/` are not rare words of what the file does.
    assert.equal(
      evidence(
        ['cmd', 'pkg', 'dashboard'],
        [
          ['cmd', 'definition'],
          ['pkg', 'definition'],
          ['dashboard', 'definition'],
        ],
        ['api'],
        'cmd/gitops/ui/cmd.go',
      ),
      undefined,
    );
  });

  it('folds a weaker record below the ones shown, for "Show more", under their relevance', () => {
    const tenancy = adr(2, 'Tenancy');
    const uses = byWords(tenancy, 0.58, { kind: 'uses', words: ['tenantKey'] });
    const all = ranked([named, uses]);
    assert.deepEqual(
      all.map((i) => [i.title, i.meta?.folded === true]),
      [
        ['ADR 0001: Invoice export', false],
        ['ADR 0002: Tenancy', true],
      ],
    );
    assert.ok(all[1].relevanceScore < all[0].relevanceScore, JSON.stringify(all.map((i) => i.relevanceScore)));
  });

  it('does not show a third record linked only by the word that linked the two above', () => {
    const titled = (n: number, score: number) =>
      byWords(adr(n, `Taxonomy ${n}`), score, {
        kind: 'name',
        words: ['taxonomi'],
        source: 'symbol',
        inRecord: 'title',
      });
    assert.deepEqual(rank([titled(4, 0.6), titled(5, 0.58), titled(6, 0.56)]), [
      'ADR 0004: Taxonomy 4',
      'ADR 0005: Taxonomy 5',
    ]);
    // A third record the code names is shown, and a longer list keeps a further one by the shared word below it.
    const other: DecisionHit = { adr: adr(7, 'Tag changes'), score: 0.56, kind: 'symbol', reason: 'names tagObject' };
    assert.deepEqual(rank([titled(4, 0.6), titled(5, 0.58), other]), [
      'ADR 0004: Taxonomy 4',
      'ADR 0005: Taxonomy 5',
      'ADR 0007: Tag changes',
    ]);
    assert.deepEqual(rank([titled(4, 0.6), titled(5, 0.58), other, titled(8, 0.55)]), [
      'ADR 0004: Taxonomy 4',
      'ADR 0005: Taxonomy 5',
      'ADR 0007: Tag changes',
      'ADR 0008: Taxonomy 8',
    ]);
  });
});

describe('decision ranking: the third place', () => {
  /** A record whose title word the definition at the cursor (`symbol`) or the file (`name`) is named after. */
  const titledBy = (n: number, title: string, score: number, word: string, source: 'symbol' | 'name') =>
    byWords(adr(n, title), score, { kind: 'name', words: [word], source, inRecord: 'title' });
  const first = titledBy(11, 'Retry budgets', 0.6, 'retri', 'symbol');
  const second = titledBy(12, 'Backoff with jitter', 0.58, 'backoff', 'symbol');

  it("folds a record linked by one word of the code: of the file's name, the definition's, or a package it only mentions", () => {
    const named = titledBy(13, 'Queue workers', 0.57, 'queue', 'name');
    const mentioned = byWords(adr(14, 'Validation waivers'), 0.57, {
      kind: 'import',
      words: ['request'],
      mentionOnly: true,
    });
    // "In-progress audit deletion workflow" for `delete_access_and_create_record`, below two records.
    const ofDefinition = titledBy(17, 'In-progress deletion workflow', 0.57, 'delet', 'symbol');
    for (const third of [named, mentioned, ofDefinition]) {
      assert.deepEqual(rank([first, second, third]), ['ADR 0011: Retry budgets', 'ADR 0012: Backoff with jitter']);
      // Folded, not dropped: "Show more" still lists it.
      assert.equal(ranked([first, second, third]).length, 3);
    }
    // In second place a title word of the file's or the definition's name is shown as before.
    for (const second of [named, ofDefinition]) assert.equal(rank([first, second]).length, 2);
  });

  it("folds a record that only mentions a package below another, unless the records above are about the file's other packages", () => {
    const pubsub: DecisionHit['evidence'] = { kind: 'import', words: ['googl'], mentionOnly: true };
    const preview = byWords(adr(18, 'Preview deployment'), 0.57, pubsub);
    // Below a record titled by a word of the definition, or one that mentions the same package, it is one of many.
    const queues = byWords(adr(19, 'Use a queue for back-end services'), 0.6, pubsub);
    for (const above of [first, queues]) {
      assert.deepEqual(rank([above, preview]), [
        above.adr.number === 11 ? 'ADR 0011: Retry budgets' : 'ADR 0019: Use a queue for back-end services',
      ]);
      assert.equal(ranked([above, preview]).length, 2, 'folded for "Show more", not dropped');
    }
    // Below a record about another package of the file (`express`, then `git-revision-webpack-plugin`), it is shown.
    const express = byWords(adr(20, 'Use Express'), 0.6, { kind: 'import', words: ['express'] });
    assert.deepEqual(rank([express, preview]), ['ADR 0020: Use Express', 'ADR 0018: Preview deployment']);
    // Alone it is the one record nearest the file.
    assert.deepEqual(rank([preview]), ['ADR 0018: Preview deployment']);
  });

  it('keeps a record titled by the package, or one the file is named after in full (`content_security_policy` ↔ CSP)', () => {
    const titled = byWords(adr(15, 'Use Celery'), 0.57, { kind: 'import', words: ['celeri'] });
    const initials = byWords(adr(16, 'Rails CSP compliant script tags'), 0.57, {
      kind: 'name',
      words: ['csp'],
      source: 'name',
      inRecord: 'title',
      acronym: true,
    });
    for (const third of [titled, initials]) assert.equal(rank([first, second, third]).length, 3);
  });
});

describe('decision ranking: the second place', () => {
  const best = byWords(adr(21, 'Retry budgets'), 0.6, {
    kind: 'name',
    words: ['retri'],
    source: 'symbol',
    inRecord: 'title',
  });

  it('shows a second record only when it comes near the best one', () => {
    const second = (score: number) =>
      byWords(adr(22, 'Backoff with jitter'), score, { kind: 'import', words: ['backoff'] });
    // 0.40 is two thirds of 0.6: too far below the first record to stand beside it alone.
    assert.deepEqual(rank([best, second(0.4)]), ['ADR 0021: Retry budgets']);
    assert.deepEqual(rank([best, second(0.45)]), ['ADR 0021: Retry budgets', 'ADR 0022: Backoff with jitter']);
    // Beside a second record near the first, a third keeps the first floor.
    const third = byWords(adr(23, 'Circuit breakers'), 0.4, { kind: 'import', words: ['breaker'] });
    assert.deepEqual(rank([best, second(0.55), third]), [
      'ADR 0021: Retry budgets',
      'ADR 0022: Backoff with jitter',
      'ADR 0023: Circuit breakers',
    ]);
  });

  it('folds a record titled by a word a fifth of the files carry below another record', () => {
    const common = (share: number) =>
      byWords(adr(24, 'Use the public activity gem'), 0.57, {
        kind: 'name',
        words: ['activ'],
        source: 'name',
        inRecord: 'title',
        share,
      });
    assert.deepEqual(rank([best, common(0.25)]), ['ADR 0021: Retry budgets']);
    assert.equal(ranked([best, common(0.25)]).length, 2, 'folded for "Show more", not dropped');
    // Alone, or named after a rarer word, it is shown.
    assert.deepEqual(rank([common(0.25)]), ['ADR 0024: Use the public activity gem']);
    assert.equal(rank([best, common(0.1)]).length, 2);
  });

  it('folds a record that only names a file next to this one, or only names this module, below another record', () => {
    const explicit = (n: number, title: string, kind: string, score: number): DecisionHit => ({
      adr: adr(n, title),
      score,
      kind,
      reason: `${title}: ${kind}`,
    });
    const sibling = explicit(26, 'Nunjucks set-up in util files', 'sibling', 0.55);
    assert.deepEqual(rank([best, sibling]), ['ADR 0021: Retry budgets']);
    assert.equal(ranked([best, sibling]).length, 2, 'folded for "Show more", not dropped');
    const moduleOnly = explicit(27, 'Page-specific services in the front end', 'module', 0.55);
    assert.deepEqual(rank([best, moduleOnly]), ['ADR 0021: Retry budgets']);
    // Alone it is shown; naming this module beside words that link it too, it keeps its place.
    assert.deepEqual(rank([sibling]), ['ADR 0026: Nunjucks set-up in util files']);
    // A record that only talks of the file's tool (Flyway) in its text, beside one about the file.
    const talks = { ...explicit(28, 'Repeatable migrations for dev and test', 'type', 0.5) };
    talks.evidence = { kind: 'type', inRecord: 'text' };
    assert.deepEqual(rank([best, talks]), ['ADR 0021: Retry budgets']);
    const titled = explicit(29, 'Use Flyway for migrations', 'type', 0.5);
    assert.equal(rank([best, titled]).length, 2, 'a record titled after the tool keeps its place');
    const worded = byWords(moduleOnly.adr, 0.5, { kind: 'name', words: ['servic'], source: 'name', inRecord: 'title' });
    assert.deepEqual(rank([best, moduleOnly, worded]).sort(), [
      'ADR 0021: Retry budgets',
      'ADR 0027: Page-specific services in the front end',
    ]);
  });

  it('folds a record linked by a folder many files sit in, or a tool-settings folder, below another record', () => {
    const inFolder = (where: string, share: number) =>
      byWords(adr(25, 'Authoring schema variants'), 0.55, { kind: 'folder', words: ['data'], where, share });
    assert.deepEqual(rank([best, inFolder('app/data_models', 0.09)]), ['ADR 0021: Retry budgets']);
    assert.equal(ranked([best, inFolder('app/data_models', 0.09)]).length, 2, 'folded for "Show more", not dropped');
    assert.deepEqual(rank([best, inFolder('.github/workflows', 0.01)]), ['ADR 0021: Retry budgets']);
    // Alone it is shown; a folder few files sit in (`src/kubernetes/`) still links a second record.
    assert.deepEqual(rank([inFolder('app/data_models', 0.09)]), ['ADR 0025: Authoring schema variants']);
    assert.deepEqual(rank([best, inFolder('src/kubernetes', 0.05)]), [
      'ADR 0021: Retry budgets',
      'ADR 0025: Authoring schema variants',
    ]);
  });
});

describe('decision records about the records', () => {
  const about = (title: string) =>
    prepareLinkable({
      path: 'docs/architecture/000-records.md',
      title,
      slug: 'records',
      sections: [{ heading: 'Decision', body: 'Each decision gets a numbered file.' }],
      area: [],
      folder: 'docs/architecture',
      name: 'ADR 000',
    }).aboutRecords;

  it('are told by a title of record words alone', () => {
    assert.equal(about('Record architecture decisions'), true);
    assert.equal(about('Lightweight Architectural Design Decision Format'), true);
    assert.equal(about('ADR template'), true);
    assert.equal(about('Date format in decision letters'), false);
  });
});

describe('decision records: words written as code', () => {
  it('are the words of the spans in backticks', () => {
    const p = prepareLinkable({
      path: 'docs/adr/0019-credentials-projection.md',
      title: 'Credentials projection',
      slug: 'credentials-projection',
      sections: [
        {
          heading: 'Decision',
          body: 'Each `AppWorkload` gets the credentials of its bindings as files; `ExceptionHandler` and every `handler` log failures.',
        },
      ],
      area: [],
      folder: 'docs/adr',
      name: 'ADR 0019',
    });
    assert.ok(p.code.includes('appworkload'), JSON.stringify(p.code));
    // The parts of a name are words of prose, and so is the text around the code.
    assert.ok(
      !p.code.some((t) => /^(?:handl|handler|credenti|credential|app|workload)$/.test(t)),
      JSON.stringify(p.code),
    );
  });
});
