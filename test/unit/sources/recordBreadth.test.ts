import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DecisionHit, DecisionRecord } from '../../../src/core/sources/decisions/decisionItems';
import { rankDecisions } from '../../../src/core/sources/decisions/decisionRanking';
import { FileTexts } from '../../../src/core/sources/decisions/fileTexts';
import { measureBreadth, RecordBreadths, sampleOf } from '../../../src/core/sources/decisions/recordBreadth';
import { nullLogger } from '../../../src/core/logger';
import { acceptedRecord, decisionWorkspace } from './decisionWorkspace';
import { adr } from './rankedRecords';

const hit = (
  record: DecisionRecord,
  score: number,
  kind: DecisionHit['kind'],
  evidence?: DecisionHit['evidence'],
): DecisionHit => ({
  adr: record,
  score,
  kind,
  reason: `${record.title}: ${kind}`,
  evidence,
});

/** The records shown before "Show more", and those folded below them. */
function panel(hits: DecisionHit[], breadth: Record<string, number>): { shown: string[]; folded: string[] } {
  const items = rankDecisions({
    file: 'src/adjudications/ReportedAdjudicationService.kt',
    hits,
    notes: [],
    unspecific: 0,
    successorOf: () => undefined,
    dateOf: () => undefined,
    breadthOf: (key) => breadth[key] ?? 0,
  });
  return {
    shown: items.filter((i) => i.meta?.folded !== true).map((i) => i.title),
    folded: items.filter((i) => i.meta?.folded === true).map((i) => i.title),
  };
}

describe('record breadth', () => {
  it('samples every n-th file of the sorted paths, the same for the same workspace', () => {
    const paths = Array.from({ length: 100 }, (_, i) => `src/f${String(i).padStart(3, '0')}.ts`);
    const a = sampleOf([...paths].reverse(), 10);
    assert.deepEqual(a, sampleOf(paths, 10));
    assert.equal(a.length, 10);
    assert.equal(a[0], 'src/f000.ts');
    assert.equal(a[9], 'src/f090.ts');
    assert.deepEqual(sampleOf(paths.slice(0, 3), 10), paths.slice(0, 3));
  });

  it('is the share of sampled files a record is linked to by specific words, common words not counting', async () => {
    const paths = ['a.ts', 'b.ts', 'c.ts', 'd.ts'];
    const { shares, sampled } = await measureBreadth({
      paths,
      link: (path) => [
        { path: 'docs/adr/0003-overview.md' },
        ...(path === 'a.ts' ? [{ path: 'docs/adr/0007-caching.md' }, { path: 'docs/adr/0007-caching.md' }] : []),
        ...(path !== 'a.ts' ? [{ path: 'docs/adr/0009-style.md', unspecific: true }] : []),
      ],
    });
    assert.equal(sampled, 4);
    assert.equal(shares.get('docs/adr/0003-overview.md'), 1);
    assert.equal(shares.get('docs/adr/0007-caching.md'), 0.25);
    assert.equal(shares.has('docs/adr/0009-style.md'), false);
  });

  it('stops reading files once its answer is stale', async () => {
    let read = 0;
    const { sampled } = await measureBreadth({
      paths: ['a.ts', 'b.ts', 'c.ts'],
      link: () => {
        read++;
        return [];
      },
      stale: () => read >= 1,
    });
    assert.equal(sampled, 1);
  });

  it('reads no more files once the workspace closes, and begins no new measure', async () => {
    const read: string[] = [];
    let release: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (release = resolve));
    const breadths = new RecordBreadths({
      linker: () => 'linker',
      paths: () => ['a.ts', 'b.ts', 'c.ts'],
      link: async (_linker, path) => {
        read.push(path);
        if (path === 'a.ts') await first;
        return [{ path: 'docs/adr/0003-overview.md' }];
      },
      logger: nullLogger,
    });
    breadths.start();
    while (read.length === 0) await new Promise((resolve) => setImmediate(resolve));
    breadths.stop();
    release();
    await breadths.settled();
    breadths.start();
    await breadths.settled();
    assert.deepEqual(read, ['a.ts']);
    assert.equal(breadths.of('docs/adr/0003-overview.md'), 0, 'a measure stopped midway keeps no answer');
  });
});

describe('decision ranking: broad records', () => {
  // Words link an architecture overview to most files of a service named after its own domain.
  const overview = adr(3, 'Architecture overview');
  const visits = adr(5, 'Loss of visits domain event');
  const byVisits = hit(visits, 0.62, 'text', { kind: 'name', words: ['visit'], source: 'name', inRecord: 'title' });
  const byDomain = hit(overview, 0.55, 'text', { kind: 'name', words: ['adjud'], source: 'name', inRecord: 'title' });
  const broad = { [overview.path]: 0.7, [visits.path]: 0.04 };

  it('folds a broad record linked by words alone below another record, saying it is repository-wide', () => {
    const { shown, folded } = panel([byVisits, byDomain], broad);
    assert.deepEqual(shown, ['ADR 0005: Loss of visits domain event']);
    assert.deepEqual(folded, ['ADR 0003: Architecture overview']);
    const item = rankDecisions({
      file: 'src/adjudications/ReportedAdjudicationService.kt',
      hits: [byVisits, byDomain],
      notes: [],
      unspecific: 0,
      successorOf: () => undefined,
      dateOf: () => undefined,
      breadthOf: (key) => broad[key] ?? 0,
    }).find((i) => i.title.startsWith('ADR 0003'));
    assert.match(item?.reason ?? '', /^repository-wide · .* \(its words link it to 7 files in 10\)$/);
    // Measured narrow, the same links show both.
    assert.deepEqual(panel([byVisits, byDomain], {}).shown, [
      'ADR 0005: Loss of visits domain event',
      'ADR 0003: Architecture overview',
    ]);
  });

  it('shows a broad record below another broad one: neither is the more specific', () => {
    const stack = adr(2, 'Front-end stack');
    const byImport = hit(stack, 0.6, 'text', { kind: 'import', words: ['bootstrap'], mentionOnly: true });
    assert.deepEqual(panel([byImport, byDomain], { ...broad, [stack.path]: 0.4 }).shown, [
      'ADR 0002: Front-end stack',
      'ADR 0003: Architecture overview',
    ]);
  });

  it('shows a broad record where no other record is shown: the one record nearest the file', () => {
    assert.deepEqual(panel([byDomain], broad), { shown: ['ADR 0003: Architecture overview'], folded: [] });
  });

  it('shows no record linked only by rare words when its words link it to most of the code', () => {
    // "Path, identifiers and created": three rare words a long API record shares with nine files in ten.
    const api = adr(10, 'API v3 basics');
    const byRareWords = hit(api, 0.6, 'text', { kind: 'words', words: ['path', 'identifi', 'creat'] });
    assert.deepEqual(panel([byRareWords], { [api.path]: 0.94 }), { shown: [], folded: [] });
    // Measured narrower, the same words still name the one record nearest the file.
    assert.deepEqual(panel([byRareWords], { [api.path]: 0.3 }).shown, ['ADR 0010: API v3 basics']);
    // A broad record linked by its title word is not linked by chance: it is shown where nothing else is.
    assert.deepEqual(panel([byDomain], { [overview.path]: 0.94 }).shown, ['ADR 0003: Architecture overview']);
  });

  it('keeps a broad record below another where specific evidence links it: a path it names', () => {
    const named = hit(overview, 0.56, 'path');
    assert.deepEqual(panel([byVisits, named, byDomain], broad).shown.sort(), [
      'ADR 0003: Architecture overview',
      'ADR 0005: Loss of visits domain event',
    ]);
  });
});

describe('record breadth in a real workspace', () => {
  // Each title word is in few file names, but together they name a third of the workspace's files.
  const files = (): Record<string, string> => {
    const out: Record<string, string> = {
      'docs/adr/0001-ledger-invoice-and-payment-architecture.md': acceptedRecord(
        1,
        'Ledger, invoice and payment architecture',
        'Ledgers, invoices and payments are separate modules that talk through events.',
      ),
      'docs/adr/0002-gap-free-entry-numbers.md': acceptedRecord(
        2,
        'Gap-free entry numbers',
        'Each entry gets the next number, with no gaps.',
      ),
    };
    const body = (name: string) => `export function ${name}(x: number): number {\n  return x + 1;\n}\n`;
    for (const area of ['ledger', 'invoice', 'payment'])
      for (const part of ['Entry', 'Store', 'View', 'Check'])
        out[`src/${area}/${area}${part}.ts`] = body(`${area}${part}`);
    for (const other of ['clock', 'config', 'logger', 'format', 'retry', 'health', 'server', 'routes'])
      for (const kind of ['', 'Options', 'Errors']) out[`src/app/${other}${kind}.ts`] = body(other + kind);
    return out;
  };
  const query = decisionWorkspace(files);

  it('folds the record words link to a third of the files below the one about this file', () => {
    const titles = query('src/ledger/ledgerEntry.ts', 'ledgerEntry', 1).map((i) => i.title);
    assert.deepEqual(titles, ['ADR 0002: Gap-free entry numbers']);
  });
});

describe('a name the record writes as code, in a language the index does not read', () => {
  const query = decisionWorkspace(() => ({
    'doc/architecture/decisions/0002-sync-with-nomis.md': acceptedRecord(
      2,
      'Sync with NOMIS',
      'Each change is sent to NOMIS through `update` and `syncPunishments` calls.',
    ),
    'src/main/kotlin/punishments/PunishmentsService.kt':
      'class PunishmentsService {\n  fun update(id: Long) {\n  }\n\n  fun syncPunishments() {\n  }\n}\n',
  }));

  it('is taken for a name many files define when it is one plain word (`update`)', () => {
    const reasons = query('src/main/kotlin/punishments/PunishmentsService.kt', 'update', 2).map((i) => i.reason);
    assert.equal(
      reasons.some((r) => r.includes('`update`')),
      false,
      reasons.join('; '),
    );
  });

  it('still names this definition when it is a compound name (`syncPunishments`)', () => {
    const reasons = query('src/main/kotlin/punishments/PunishmentsService.kt', 'syncPunishments', 5).map(
      (i) => i.reason,
    );
    assert.ok(
      reasons.some((r) => r.includes('mentions `syncPunishments`')),
      reasons.join('; '),
    );
  });
});

describe('reading the sampled files', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pc-breadth-'));
    mkdirSync(join(dir, 'ws', 'src'), { recursive: true });
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'ws', 'src', 'ledger.ts'), 'export const ledger = 1;\n');
    writeFileSync(join(dir, 'outside', 'secret.ts'), 'export const secret = 1;\n');
    symlinkSync(join(dir, 'outside', 'secret.ts'), join(dir, 'ws', 'src', 'notes.ts'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file of the workspace, and none that a link points out of it', async () => {
    const texts = new FileTexts(join(dir, 'ws'), 1_000_000);
    assert.equal(await texts.read('src/ledger.ts'), 'export const ledger = 1;\n');
    assert.equal(await texts.read('src/notes.ts'), undefined);
    assert.equal(await texts.read('../outside/secret.ts'), undefined);
  });
});
