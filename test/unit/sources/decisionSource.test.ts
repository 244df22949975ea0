import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../../src/core/config';
import { MemoryLogger } from '../../../src/core/logger';
import { DecisionSource } from '../../../src/core/sources/decisions/decisionSource';
import { openWorkspace, type Workspace } from './sourceFixtures';

const NOW = Date.UTC(2024, 6, 1, 12);
const adr = (n: number, title: string, body: string) =>
  `# ${n}. ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;

describe('DecisionSource', () => {
  let ws: Workspace;
  let source: DecisionSource;
  let logger: MemoryLogger;

  afterEach(() => ws?.dispose());

  function writeFiles(files: Record<string, string>) {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(ws.root, path, '..'), { recursive: true });
      writeFileSync(join(ws.root, path), text);
    }
  }

  async function open(fixture?: string, config = {}) {
    ws = await openWorkspace(fixture);
    logger = new MemoryLogger();
    source = new DecisionSource({
      root: ws.root,
      store: ws.store,
      logger,
      now: () => NOW,
      config: resolveConfig(config),
    });
  }

  describe('discovery and indexing', () => {
    it('finds ADRs in the folder named by .adr-dir, skipping README and templates', async () => {
      await open('nygard-repo');
      const stats = await source.refresh();
      assert.deepEqual(source.decisionFolders, ['doc/architecture/decisions']);
      assert.deepEqual(
        source
          .list()
          .map((d) => d.label)
          .sort(),
        ['0001', '0002', '0003', '0004'],
      );
      assert.equal(stats.entries, 4);
      assert.deepEqual(
        source.search('rounding', 5).map((r) => r.path),
        ['doc/architecture/decisions/0003-price-rules-in-billing.md'],
      );
      assert.deepEqual(source.whereLooked().folders, [
        { path: 'doc/architecture/decisions', reason: 'adr-dir', records: 4 },
      ]);
    });

    it('skips a binary file named .md and says why in the log', async () => {
      await open('nygard-repo');
      writeFileSync(
        join(ws.root, 'doc/architecture/decisions/0005-diagram.md'),
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]),
      );
      const stats = await source.refresh();
      assert.equal(stats.skipped, 1);
      assert.ok(!source.list().some((d) => d.path.endsWith('0005-diagram.md')));
      assert.ok(
        logger.lines.some(
          (l) => l.level === 'warn' && l.message.includes('0005-diagram.md') && /binary/.test(l.message),
        ),
      );
    });

    it('keeps an ADR without status as unknown and logs it at debug level', async () => {
      await open();
      mkdirSync(join(ws.root, 'docs/decisions'), { recursive: true });
      writeFileSync(
        join(ws.root, 'docs/decisions/0001-cache-images.md'),
        '# Cache product images\n\n## Decision\n\nUse a CDN.\n',
      );
      await source.refresh();
      assert.equal(source.list()[0].status, 'unknown');
      assert.ok(logger.lines.some((l) => l.level === 'debug' && l.message.includes('no status')));
    });

    it('takes only numbered or status-bearing files from a general docs/architecture folder', async () => {
      await open();
      mkdirSync(join(ws.root, 'docs/architecture'), { recursive: true });
      writeFileSync(
        join(ws.root, 'docs/architecture/overview.md'),
        '# System overview\n\nThe shop has three services.\n',
      );
      writeFileSync(
        join(ws.root, 'docs/architecture/0001-split-billing.md'),
        '# 1. Split billing out\n\nStatus: accepted\n',
      );
      writeFileSync(join(ws.root, 'docs/architecture/adr-0002-queue.md'), '# Use a queue\n');
      await source.refresh();
      assert.deepEqual(
        source
          .list()
          .map((d) => `${d.label}:${d.status}`)
          .sort(),
        ['0001:accepted', '0002:unknown'],
      );
    });

    it('finds decisions in a configured folder', async () => {
      await open();
      mkdirSync(join(ws.root, 'architecture/records'), { recursive: true });
      writeFileSync(join(ws.root, 'architecture/records/0001-use-grpc.md'), '# 1. Use gRPC\n\n## Status\n\nAccepted\n');
      source = new DecisionSource({
        root: ws.root,
        store: ws.store,
        config: resolveConfig({ decisionFolders: ['architecture/records'] }),
      });
      await source.refresh();
      assert.deepEqual(
        source.list().map((d) => d.title),
        ['Use gRPC'],
      );
    });

    it('re-reads only changed files and drops deleted ones on refresh', async () => {
      await open('nygard-repo');
      await source.refresh();
      const again = await source.refresh();
      assert.equal(again.parsed, 0);
      const p = join(ws.root, 'doc/architecture/decisions/0003-price-rules-in-billing.md');
      writeFileSync(p, readFileSync(p, 'utf8').replace('## Status\n\nAccepted', '## Status\n\nDeprecated'));
      utimesSync(p, new Date(NOW), new Date(NOW));
      const third = await source.refresh();
      assert.equal(third.parsed, 1);
      assert.equal(source.list().find((d) => d.label === '0003')?.status, 'deprecated');
      rmSync(join(ws.root, 'doc/architecture/decisions/0001-record-architecture-decisions.md'));
      assert.equal((await source.refresh()).entries, 3);
      assert.ok(
        !source
          .search('record architecture decisions', 5)
          .some((r) => r.path.endsWith('0001-record-architecture-decisions.md')),
        'the deleted record is no longer found',
      );
    });
  });

  describe('linking to code', () => {
    beforeEach(async () => {
      await open('nygard-repo');
      await source.refresh();
    });

    it('gives a record no age until the history is read, then its last commit, never the checkout time', async () => {
      // A record that states no date of its own.
      const path = 'doc/architecture/decisions/0005-ledger-audit-log.md';
      writeFiles({
        [path]: adr(5, 'Ledger audit log', 'Every write in src/payments/ledger.ts appends to the audit log.'),
      });
      await source.refresh();
      const committed = Date.UTC(2023, 0, 5);
      let known = false;
      // Until the history is read, its commit is not known either.
      source.setLastCommit(
        (p) => (known && p === path ? committed : undefined),
        () => known,
      );
      const ageOf = () =>
        source.query({ file: 'src/payments/ledger.ts' }).find((i) => i.entityId === `decision:${path}`);
      const before = ageOf();
      assert.ok(before, 'the record is suggested');
      assert.equal(before.timestamp, undefined, 'a file time before the history is read is the clone time');
      known = true;
      source.codeChanged();
      assert.equal(ageOf()?.timestamp, committed);
    });

    it('warns that code governed by a superseded ADR should follow its successor', () => {
      const items = source.query({ file: 'src/payments/ledger.ts' });
      const warning = items.find((i) => i.type === 'warning');
      assert.ok(warning, 'a warning item');
      assert.equal(warning.title, 'Governed by superseded ADR 0002 — see ADR 0004: Use events for ledger updates');
      assert.equal(warning.reason, 'ADR 0002 names src/payments/ledger.ts');
      assert.equal(warning.location.path, 'doc/architecture/decisions/0002-write-ledger-entries-directly.md');
      assert.equal(warning.timestamp, undefined, 'how old the record is does not make the warning weaker or stronger');
      const successor = items.find(
        (i) => i.entityId === 'decision:doc/architecture/decisions/0004-use-events-for-ledger-updates.md',
      );
      assert.ok(successor, 'the successor is suggested too');
      assert.match(successor.reason, /supersedes ADR 0002/);
      assert.ok(
        !items.some((i) => i.entityId === 'decision:doc/architecture/decisions/0002-write-ledger-entries-directly.md'),
        'the retired ADR is shown only as a warning',
      );
    });

    it('links an ADR through an inline ADR-3 comment and reads DECISION: notes as decisions at their line', () => {
      const items = source.query({ file: 'src/payments/ledger.ts', line: 10 });
      const adr3 = items.find((i) => i.location.adr === '0003');
      assert.ok(adr3);
      assert.equal(adr3.reason, 'line 14 of src/payments/ledger.ts refers to ADR-3');
      assert.ok(adr3.relevanceScore >= 0.9);
      const note = items.find((i) => i.title.startsWith('Decision note:'));
      assert.ok(note);
      assert.equal(note.type, 'decision');
      assert.deepEqual(note.location, { path: 'src/payments/ledger.ts', line: 8, endLine: 9 });
      assert.equal(
        note.summary,
        'refunds are posted as negative entries, never as deletions, so the audit trail stays complete.',
      );
    });

    it('counts a reference inside another function of the file less than one at the definition under the cursor', () => {
      const adr3 = (range: { start: number; end: number }) =>
        source
          .query({ file: 'src/payments/ledger.ts', line: range.start, symbolRange: range })
          .find((i) => i.location.adr === '0003');
      // `/* Rounding follows ADR-3 */` is the doc comment of total() (15-17), not part of applyRefund() (10-12).
      const inTotal = adr3({ start: 15, end: 17 });
      const inRefund = adr3({ start: 10, end: 12 });
      assert.ok(inTotal && inRefund);
      assert.ok(inTotal.relevanceScore >= 0.9, `at total(): ${inTotal.relevanceScore}`);
      assert.ok(
        inRefund.relevanceScore < 0.8 && inRefund.relevanceScore >= 0.6,
        `at applyRefund(): ${inRefund.relevanceScore}`,
      );
      assert.equal(inRefund.reason, 'line 14 of src/payments/ledger.ts refers to ADR-3');
    });

    it('reads inline references from unsaved editor text when given', () => {
      const items = source.query({
        file: 'src/new.ts',
        fileText: 'export const x = 1; // see docs/adr/0004-use-events-for-ledger-updates.md\n',
      });
      assert.equal(items[0]?.location.adr, '0004');
    });

    it('takes a record moved aside without its number for the file name the code gives, not the number alone', async () => {
      // The code still says `0003-ledger-rounding.md`; that record now lives in `historic/` without its
      // number, and 0003 went to another record.
      writeFiles({
        'doc/architecture/decisions/historic/ledger-rounding.md': adr(
          9,
          'Ledger rounding',
          'Totals round half to even.',
        ),
      });
      await source.refresh();
      const items = source.query({
        file: 'src/new.ts',
        fileText: 'export const x = 1; // see 0003-ledger-rounding.md\n',
      });
      assert.equal(items[0]?.location.path, 'doc/architecture/decisions/historic/ledger-rounding.md');
      // A name no record has still finds the record by its number.
      const byNumber = source.query({ file: 'src/new.ts', fileText: 'export const x = 1; // see 0004-events.md\n' });
      assert.equal(byNumber[0]?.location.adr, '0004');
    });

    it('links files under a glob an ADR names, above a mere symbol mention', () => {
      const items = source.query({ file: 'src/billing/discounts.ts', symbol: 'applyDiscount' });
      const adr3 = items.find((i) => i.location.adr === '0003');
      assert.ok(adr3);
      assert.equal(adr3.reason, 'ADR 0003 covers src/billing/** (src/billing/discounts.ts is under it)');
      const symbolOnly = source
        .query({ file: 'lib/pricing.ts', symbol: 'applyDiscount' })
        .find((i) => i.location.adr === '0003');
      assert.ok(symbolOnly && adr3.relevanceScore >= 0.86 && adr3.relevanceScore > symbolOnly.relevanceScore);
    });

    it('links by a backticked symbol when the path is not named', () => {
      const items = source.query({ file: 'lib/pricing.ts', symbol: 'applyDiscount' });
      const adr3 = items.find((i) => i.location.adr === '0003');
      assert.ok(adr3);
      assert.equal(adr3.reason, 'ADR 0003 mentions `applyDiscount`');
      assert.ok(adr3.relevanceScore < 0.86 && adr3.relevanceScore >= 0.7);
    });

    it('links files under a directory an ADR names', () => {
      const items = source.query({ file: 'src/ledger-consumer/worker.ts' });
      const adr4 = items.find((i) => i.location.adr === '0004');
      assert.ok(adr4);
      assert.equal(adr4.reason, 'ADR 0004 governs src/ledger-consumer/ (src/ledger-consumer/worker.ts is under it)');
    });

    it('links a file whose name the title of an ADR holds, below a record that names the file or a glob over it', () => {
      const items = source.query({ file: 'src/ledger/ledgerUpdates.ts' });
      assert.equal(items[0]?.location.adr, '0004');
      assert.equal(items[0].reason, 'ADR 0004 is titled after ledgerUpdates (this module)');
      assert.ok(items[0].relevanceScore < 0.86 && items[0].relevanceScore >= 0.6, String(items[0].relevanceScore));
    });

    it('falls back to the words of the symbol in a record body, weakly and below explicit links', () => {
      // ADR 0004 says "Balances are eventually consistent" in its last line.
      const items = source.query({ file: 'src/report/summary.ts', symbol: 'consistentBalances' });
      assert.equal(items[0]?.location.adr, '0004');
      assert.equal(items[0].reason, 'ADR 0004 is about consistent, which the definition here is named after');
      assert.ok(items[0].relevanceScore < 0.5 && items[0].relevanceScore >= 0.3, String(items[0].relevanceScore));
    });

    it('returns nothing for unrelated code', () => {
      assert.deepEqual(source.query({ file: 'tools/format.sh' }), []);
    });
  });

  describe('how specific a named path is', () => {
    beforeEach(async () => {
      await open();
      const files: Record<string, string> = {
        'docs/adr/0001-write-typescript.md': adr(
          1,
          'Write TypeScript',
          'Everything under `src/` and every `**/*.ts` file is strict TypeScript.',
        ),
        'docs/adr/0002-refund-as-negative-entries.md': adr(
          2,
          'Refund as negative entries',
          'See `src/payments/refunds.ts`. The root `package.json` pins the toolchain.',
        ),
        'docs/adr/0003-generated-clients.md': adr(
          3,
          'Generated clients',
          'The generator writes `src/gen/client0.ts` and its peers.',
        ),
        'src/payments/ledger.ts': 'export const post = 1;\n',
        'src/payments/refunds.ts': 'export const refund = 1;\n',
        'src/billing/invoice.ts': 'export const invoice = 1;\n',
        'package.json': '{}\n',
        'tsconfig.json': '{}\n',
      };
      for (let i = 0; i < 80; i++) files[`src/gen/client${i}.ts`] = `export const c${i} = ${i};\n`;
      writeFiles(files);
      await source.refresh();
    });

    it('does not link every file to a record that names a folder or glob covering most of the workspace', () => {
      assert.ok(!source.query({ file: 'src/billing/invoice.ts' }).some((i) => i.location.adr === '0001'));
    });

    it('links a file to a record that names another file of its small folder, but not at the root', () => {
      const near = source.query({ file: 'src/payments/ledger.ts' }).find((i) => i.location.adr === '0002');
      assert.ok(near);
      assert.equal(near.reason, 'ADR 0002 names refunds.ts, next to this file');
      const named = source.query({ file: 'src/payments/refunds.ts' }).find((i) => i.location.adr === '0002');
      assert.ok(named && named.relevanceScore > near.relevanceScore, 'naming the file itself is stronger');
      assert.ok(
        !source.query({ file: 'tsconfig.json' }).some((i) => i.location.adr === '0002'),
        'root files are no neighbourhood',
      );
    });

    it('weakens the neighbourhood link in a large folder', () => {
      const small = source.query({ file: 'src/payments/ledger.ts' }).find((i) => i.location.adr === '0002');
      const large = source.query({ file: 'src/gen/client5.ts' }).find((i) => i.location.adr === '0003');
      assert.ok(small && large, 'both are linked');
      assert.ok(large.relevanceScore < small.relevanceScore, `${large.relevanceScore} < ${small.relevanceScore}`);
    });
  });

  describe('names that several files answer to', () => {
    beforeEach(async () => {
      await open();
      const files: Record<string, string> = {
        'docs/adr/0001-qgb-state.md': adr(1, 'QGB state', 'Deprecated: the bridge is gone.').replace(
          'Accepted',
          'Deprecated',
        ),
        'docs/adr/0002-logging.md': adr(
          2,
          'Logging standard',
          'The main library packages are `pkg/core/` and `pkg/util/`; both log through one facade.',
        ),
        'docs/adr/0003-mint-genesis.md': adr(3, 'Mint genesis', 'Mint reads its parameters in `genesis.go`.'),
        'app/docs/adr/0004-static-types.md': adr(4, 'Static types', 'The compiler settings live in `tsconfig.json`.'),
        'app/tsconfig.json': '{}\n',
        'lib/tsconfig.json': '{}\n',
        'tools/tsconfig.json': '{}\n',
      };
      files['docs/adr/0001-qgb-state.md'] = files['docs/adr/0001-qgb-state.md'].replace(
        'the bridge is gone.',
        'The bridge kept its handlers in `msg_server.go`.',
      );
      for (const m of ['bank', 'mint', 'blob', 'signal', 'fibre']) {
        files[`x/${m}/keeper/msg_server.go`] = `package keeper\n\nfunc Handle${m}() {}\n`;
        files[`x/${m}/types/genesis.go`] = `package types\n\nfunc Default${m}() {}\n`;
        files[`x/${m}/types/params.go`] = `package types\n\nfunc Params${m}() {}\n`;
      }
      for (let i = 0; i < 150; i++) files[`pkg/core/mod${i}/file${i}.go`] = `package mod${i}\n`;
      // Enough other files that pkg/core/ (150) is under a tenth of the workspace: large, not broad.
      for (let i = 0; i < 1500; i++) files[`pkg/api/gen/f${i}.go`] = `package gen\n`;
      writeFiles(files);
      await source.refresh();
    });

    it('warns about a retired record only when the file name it gives points at this file', () => {
      const items = source.query({ file: 'x/bank/keeper/msg_server.go' });
      assert.ok(
        !items.some((i) => i.type === 'warning'),
        'five files are named msg_server.go: no warning for any of them',
      );
      const weak = items.find((i) => i.location.adr === '0001');
      assert.ok(!weak || weak.relevanceScore < 0.6, String(weak?.relevanceScore));
    });

    it('does not place a record next to every file that shares a folder with a common name', () => {
      assert.ok(
        !source.query({ file: 'x/blob/types/params.go' }).some((i) => i.location.adr === '0003'),
        'genesis.go is in every module',
      );
    });

    it('takes the file nearest the record when several have its name', () => {
      const app = source.query({ file: 'app/tsconfig.json' }).find((i) => i.location.adr === '0004');
      const lib = source.query({ file: 'lib/tsconfig.json' }).find((i) => i.location.adr === '0004');
      assert.ok(app && app.relevanceScore >= 0.85, `the record's own package: ${app?.relevanceScore}`);
      assert.ok(!lib || lib.relevanceScore < app.relevanceScore * 0.9, `another package: ${lib?.relevanceScore}`);
    });

    it('gives a folder that holds many files a weaker hold on each of them', () => {
      const item = source.query({ file: 'pkg/core/mod3/file3.go' }).find((i) => i.location.adr === '0002');
      assert.ok(item, 'still linked');
      assert.ok(item.relevanceScore < 0.74 && item.relevanceScore >= 0.3, String(item.relevanceScore));
    });
  });

  describe('folders a record names', () => {
    beforeEach(async () => {
      await open();
      const files: Record<string, string> = {
        'docs/adr/0001-thin-cli.md': adr(
          1,
          'Thin command line',
          'All actual work must happen in `pkg/`; the command only parses flags.',
        ),
        'docs/adr/0002-isolation.md': adr(
          2,
          'Service isolation',
          'Services never import each other. Shared parts: `pkg/config/` (settings), `pkg/types/` (interfaces), `pkg/runner/` (wiring), `pkg/lint/`, `pkg/scaffold/` and `pkg/report/` are services.',
        ),
        'docs/adr/0003-settings.md': adr(3, 'Settings files', 'Settings are read in `pkg/config/` and nowhere else.'),
        'docs/adr/0004-registry.md': adr(
          4,
          'One registry',
          'Every service name is a constant in `pkg/kinds/names.go`; helpers sit in `pkg/kinds/helpers.go`.',
        ),
        'pkg/types/names.go': 'package types\n\nconst Lint = "lint"\n',
        'pkg/types/helpers.go': 'package types\n',
        'pkg/runner/helpers.go': 'package runner\n',
      };
      for (const d of ['config', 'types', 'runner', 'lint', 'scaffold', 'report'])
        for (let i = 0; i < 5; i++) files[`pkg/${d}/f${i}.go`] = `package ${d}\n\nfunc F${i}() {}\n`;
      writeFiles(files);
      await source.refresh();
    });

    it('holds a conventional code root (`pkg/`) and a tour of many folders weaker than a folder named alone', () => {
      const items = source.query({ file: 'pkg/config/f1.go' });
      const score = (n: string) => items.find((i) => i.location.adr === n)?.relevanceScore ?? 0;
      assert.ok(score('0003') >= 0.7, `named alone: ${score('0003')}`);
      assert.ok(score('0001') < 0.5, `pkg/ says where the code lives: ${score('0001')}`);
      assert.ok(score('0002') < score('0003') * 0.8, `one of six folders: ${score('0002')} vs ${score('0003')}`);
    });

    it('takes a path the code has moved away from for the one file left with its name', () => {
      const moved = source.query({ file: 'pkg/types/names.go' }).find((i) => i.location.adr === '0004');
      assert.ok(moved, 'linked');
      assert.equal(
        moved.reason,
        'ADR 0004 names pkg/kinds/names.go; no file is there now, and this is the one names.go',
      );
      assert.ok(
        !source
          .query({ file: 'pkg/types/helpers.go' })
          .some((i) => i.location.adr === '0004' && i.reason.includes('no file is there')),
        'two files are named helpers.go',
      );
    });
  });

  describe('records titled after a module, files many records name, and shared numbers', () => {
    beforeEach(async () => {
      await open();
      const files: Record<string, string> = {
        'docs/adr/0001-reactor-and-proactor.md': adr(
          1,
          'Reactor and Nonblocking IO, Proactor and Blocking IO',
          'Two pumps: one blocks, one awaits.',
        ),
        'docs/adr/0006-use-a-claim-check.md': adr(
          6,
          'Use A Claim Check For Large Messages',
          'Big bodies go to a store; the header keeps the key.',
        ),
        'docs/adr/0007-reduce-allocations.md': adr(
          7,
          'Reduce allocations with spans',
          'The `ClaimCheckTransformer` now compares stored bytes: the threshold semantics changed.',
        ),
        'docs/adr/0007-box-schema-versioning.md': adr(
          7,
          'Box schema versioning',
          'Outbox tables carry a schema version.',
        ),
        'src/pump/Proactor.cs': 'public class Proactor { }\n',
        'src/pump/Reactor.cs': 'public class Reactor { }\n',
        'src/transforms/ClaimCheckTransformer.cs':
          'public class ClaimCheckTransformer {\n  // see ADR 0007 for threshold semantics\n}\n',
      };
      const later = [
        'Ack after the handler',
        'Reject on mapping errors',
        'Reject on handler errors',
        'Pool connections',
      ];
      later.forEach(
        (title, i) =>
          (files[`docs/adr/00${10 + i}-${title.toLowerCase().replace(/ /g, '-')}.md`] = adr(
            10 + i,
            title,
            `We changed \`src/pump/Proactor.cs\` for this.`,
          )),
      );
      writeFiles(files);
      await source.refresh();
    });

    it('puts the record titled after the module above records that each name the file in passing', () => {
      const decisions = source.query({ file: 'src/pump/Proactor.cs' }).filter((i) => i.type === 'decision');
      assert.equal(decisions[0]?.location.adr, '0001');
      assert.equal(decisions[0].reason, 'ADR 0001 is titled after Proactor (this module)');
      assert.ok(
        decisions.some((i) => i.reason === 'ADR 0010 names src/pump/Proactor.cs'),
        'the records naming it are still shown',
      );
    });

    it('takes a title holding most of the module name, and resolves a shared number to the record that names the file', () => {
      const items = source
        .query({ file: 'src/transforms/ClaimCheckTransformer.cs' })
        .filter((i) => i.type === 'decision');
      const ref = items.find((i) => i.reason.startsWith('line 2 of'));
      assert.equal(ref?.location.path, 'docs/adr/0007-reduce-allocations.md');
      const titled = items.find((i) => i.location.adr === '0006');
      assert.equal(titled?.reason, 'ADR 0006 is titled after ClaimCheckTransformer (this module)');
      assert.ok(!items.some((i) => i.location.path === 'docs/adr/0007-box-schema-versioning.md'));
    });
  });

  describe('recordDecision', () => {
    it('numbers after the highest ADR and copies the Nygard format and zero padding', async () => {
      await open('nygard-repo');
      await source.refresh();
      const path = await source.recordDecision({
        title: 'Use Café/Ledger (v2)!',
        context: 'Ctx.',
        decision: 'We do it.',
        consequences: 'Fine.',
      });
      assert.equal(path, 'doc/architecture/decisions/0005-use-cafe-ledger-v2.md');
      const text = readFileSync(join(ws.root, path), 'utf8');
      assert.match(text, /^# 5\. Use Café\/Ledger \(v2\)!\n\nDate: 2024-07-01\n\n## Status\n\nAccepted\n/);
      assert.ok(
        source.list().some((d) => d.path === path),
        'the new ADR is indexed at once',
      );
    });

    it('copies MADR front matter from the newest ADR', async () => {
      await open();
      mkdirSync(join(ws.root, 'docs/decisions'), { recursive: true });
      writeFileSync(
        join(ws.root, 'docs/decisions/007-use-json-logs.md'),
        readFileSync(join(__dirname, '../../../../test/fixtures/sources/adr/madr-frontmatter.md')),
      );
      await source.refresh();
      const path = await source.recordDecision({
        title: 'Trace with OpenTelemetry',
        context: 'c',
        decision: 'd',
        consequences: 'e',
        status: 'proposed',
      });
      assert.equal(path, 'docs/decisions/008-trace-with-opentelemetry.md');
      assert.match(
        readFileSync(join(ws.root, path), 'utf8'),
        /^---\nstatus: proposed\ndate: 2024-07-01\n---\n\n# Trace with OpenTelemetry\n\n## Context and Problem Statement/,
      );
    });

    it('copies MADR bullet fields from the newest ADR', async () => {
      await open();
      mkdirSync(join(ws.root, 'docs/adr'), { recursive: true });
      writeFileSync(
        join(ws.root, 'docs/adr/0012-use-keycloak.md'),
        readFileSync(join(__dirname, '../../../../test/fixtures/sources/adr/madr-bullets.md')),
      );
      await source.refresh();
      const path = await source.recordDecision({
        title: 'Rotate keys monthly',
        context: 'c',
        decision: 'd',
        consequences: 'e',
      });
      assert.equal(path, 'docs/adr/0013-rotate-keys-monthly.md');
      assert.match(
        readFileSync(join(ws.root, path), 'utf8'),
        /^# Rotate keys monthly\n\n\* Status: accepted\n\* Date: 2024-07-01\n/,
      );
    });

    it('writes into the folder .adr-dir names even before it exists', async () => {
      await open();
      writeFileSync(join(ws.root, '.adr-dir'), 'architecture/log\n');
      await source.refresh();
      const path = await source.recordDecision({
        title: 'Record architecture decisions',
        context: 'c',
        decision: 'd',
        consequences: 'e',
      });
      assert.equal(path, 'architecture/log/0001-record-architecture-decisions.md');
      assert.deepEqual(source.decisionFolders, ['architecture/log']);
    });

    it('creates docs/adr with 0001 when the repo has no decisions yet', async () => {
      await open();
      await source.refresh();
      const path = await source.recordDecision({
        title: 'Record architecture decisions',
        context: 'c',
        decision: 'd',
        consequences: 'e',
      });
      assert.equal(path, 'docs/adr/0001-record-architecture-decisions.md');
    });

    it('numbers after a record saved without an extension, and skips pictures', async () => {
      await open('nygard-repo');
      const dir = join(ws.root, 'doc/architecture/decisions');
      writeFileSync(
        join(dir, '0005-handle-concurrent-writes'),
        '# 5. Handle concurrent writes\n\nDate: 2024-05-04\n\n## Status\n\nAccepted\n\n## Context\n\nWrites collide.\n\n## Decision\n\nOne writer.\n',
      );
      writeFileSync(join(dir, '0009-ledger-diagram.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
      await source.refresh();
      assert.ok(
        source
          .list()
          .some(
            (d) =>
              d.path === 'doc/architecture/decisions/0005-handle-concurrent-writes' &&
              d.title === 'Handle concurrent writes',
          ),
      );
      const path = await source.recordDecision({
        title: 'Shard the ledger',
        context: 'c',
        decision: 'd',
        consequences: 'e',
      });
      assert.equal(path, 'doc/architecture/decisions/0006-shard-the-ledger.md');
    });

    it('refuses to overwrite when the next number is already taken', async () => {
      await open('nygard-repo');
      await source.refresh();
      const dir = join(ws.root, 'doc/architecture/decisions');
      // A draft someone keeps under the next number must not be clobbered or shadowed.
      writeFileSync(join(dir, '0005-draft.txt'), 'keep me');
      await assert.rejects(
        source.recordDecision({ title: 'Anything', context: '', decision: '', consequences: '' }),
        /already taken/,
      );
      assert.equal(readFileSync(join(dir, '0005-draft.txt'), 'utf8'), 'keep me');
      assert.ok(!readdirSync(dir).some((n) => n.startsWith('0005-anything')));
      assert.ok(existsSync(join(dir, '0004-use-events-for-ledger-updates.md')));
    });
  });
});
