import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type EngineParts } from '../../../src/core/engine';
import { MemoryLogger } from '../../../src/core/logger';
import type { ContextSuggestion, SuggestionItem } from '../../../src/core/types';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const setup = join(repoRoot, 'demo-workspace', 'setup.mjs');

function makeDemo(): { root: string; state: string; cleanup(): void } {
  const base = mkdtempSync(join(tmpdir(), 'pc-provider-'));
  const root = join(base, 'demo');
  execFileSync(process.execPath, [setup, root], { stdio: 'ignore' });
  return { root, state: join(base, 'state'), cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

const ofType = (s: ContextSuggestion, t: SuggestionItem['type']) => s.items.filter((i) => i.type === t);

describe('ProactiveContextProvider on a real repository', function () {
  this.timeout(60000);
  let demo: ReturnType<typeof makeDemo>;
  let engine: EngineParts;
  const logger = new MemoryLogger();

  before(async () => {
    demo = makeDemo();
    engine = await openEngine({ root: demo.root, stateDir: demo.state, logger, config: { minRelevanceScore: 0 } });
    await engine.indexer.refreshAll();
  });
  after(() => {
    engine?.dispose();
    demo?.cleanup();
  });

  it('returns every kind for the function at the cursor, each with a reason and a location', async () => {
    const s = await engine.provider.suggest({ currentFile: 'src/pricing.ts', cursorPosition: { line: 18, column: 3 } });
    assert.equal(s.query.currentSymbol, 'applyDiscount');
    for (const type of ['decision', 'warning', 'change', 'cochange', 'related_code', 'doc'] as const) {
      assert.ok(ofType(s, type).length > 0, `expected a ${type} item, got ${s.items.map((i) => i.type).join(', ')}`);
    }
    for (const item of s.items) {
      assert.ok(item.reason.length > 5, `${item.title} has a reason`);
      assert.ok(item.entityId, `${item.title} has an entity id`);
      assert.ok(
        !item.location.path.startsWith('/') && !item.location.path.includes('..'),
        `${item.location.path} is root-relative`,
      );
    }
    const scores = s.items.map((i) => i.relevanceScore);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      'items are ranked by score',
    );

    const adr = ofType(s, 'decision').find(
      (i) => i.location.path === 'docs/adr/0003-cap-discounts-at-fifty-percent.md',
    );
    assert.ok(adr, 'ADR 0003 governs applyDiscount');
    assert.match(adr.reason, /ADR-3/);

    const failing = ofType(s, 'warning').find((i) => /caps stacked discounts/.test(i.title));
    assert.ok(failing, 'the failing test is a warning');
    assert.equal(failing.location.path, 'reports/junit.xml');
    assert.match(failing.reason, /failed in reports\/junit\.xml/);

    // toCents is called in legacyTotalCents: a warning there, not in applyDiscount.
    assert.ok(!ofType(s, 'warning').some((i) => /toCents/.test(i.title)), 'a deprecated use in another function');
    const legacy = await engine.provider.suggest({
      currentFile: 'src/pricing.ts',
      cursorPosition: { line: 24, column: 3 },
    });
    const deprecated = ofType(legacy, 'warning').find((i) => /toCents/.test(i.title));
    assert.ok(deprecated && /deprecated/i.test(deprecated.title), 'the deprecated toCents call is a warning naming it');
    assert.equal(deprecated.location.line, 24);

    // The history of the function's lines comes in the second pass that enriches the first answer.
    assert.ok(
      !ofType(s, 'change').some((i) => /changed applyDiscount/.test(i.reason)),
      'line history is not in the first answer',
    );
    const enriched = (await engine.provider.enrich(s)) ?? s;
    const lineCommit = ofType(enriched, 'change').find((i) => /Cap stacked discounts/.test(i.title));
    assert.ok(
      lineCommit?.location.commit && /changed applyDiscount/.test(lineCommit.reason),
      'the commit that changed applyDiscount is shown',
    );
    const hunk = ofType(s, 'change').find((i) => i.meta?.uncommitted);
    assert.ok(hunk, 'the uncommitted edit is shown');
    assert.equal(hunk.location.line, 17);
    assert.match(hunk.reason, /inside applyDiscount/);

    const caller = ofType(s, 'related_code').find((i) => i.location.path === 'src/checkout.ts');
    assert.ok(caller, 'checkout() calls applyDiscount');
    assert.equal(caller.location.line, 13);
    assert.match(caller.title, /^checkout — src\/checkout\.ts:13$/);

    const doc = ofType(s, 'doc').find((i) => i.location.path === 'README.md' && /Discounts/.test(i.title));
    assert.ok(doc && /applyDiscount/.test(doc.reason), 'the README section on discounts is suggested');

    const cart = ofType(s, 'cochange').find((i) => i.location.path === 'src/cart.ts');
    assert.ok(
      cart && /changed together in \d+ of \d+ commits/.test(cart.reason),
      'cart.ts usually changes with pricing.ts',
    );
  });

  it('shows only commits of this file as its recent changes; a related file appears as co-change', async () => {
    const s = await engine.provider.suggest({ currentFile: 'src/pricing.ts', cursorPosition: { line: 18, column: 1 } });
    const changes = ofType(s, 'change');
    assert.ok(changes.length > 0, 'pricing.ts has commits');
    assert.deepEqual(
      changes.filter((i) => i.location.path !== 'src/pricing.ts').map((i) => i.title),
      [],
      'no commit of another file',
    );
    const hashes = changes.map((i) => i.location.commit).filter(Boolean);
    assert.equal(new Set(hashes).size, hashes.length, 'no commit twice');
    assert.ok(
      ofType(s, 'cochange').some((i) => i.location.path === 'src/cart.ts'),
      'cart.ts still shows as changing with it',
    );
  });

  it('suggests a related decision and warns about code under a superseded one (seed case)', async () => {
    const s = await engine.provider.suggest({ currentFile: 'src/money.ts', cursorPosition: { line: 24, column: 1 } });
    assert.ok(
      ofType(s, 'decision').some((i) => i.location.path === 'docs/adr/0004-use-a-money-type-for-all-amounts.md'),
      'ADR 0004 names src/money.ts',
    );
    const superseded = ofType(s, 'warning').find((i) => /superseded/i.test(i.title));
    assert.ok(superseded, `a superseded-decision warning, got ${s.items.map((i) => i.title).join(' | ')}`);
    assert.match(superseded.title, /0002/);
    assert.match(superseded.title, /0004/);
  });

  it('stores markUsed and dismiss, holds a dismissed item back for that file, and re-weights kinds', async () => {
    // money.ts: README § Money names src/money.ts (cart.ts has only a passing mention, under the doc floor).
    const first = await engine.provider.suggest({
      currentFile: 'src/money.ts',
      cursorPosition: { line: 14, column: 1 },
    });
    const doc = ofType(first, 'doc')[0];
    const decision = ofType(first, 'decision')[0] ?? first.items[0];
    assert.ok(doc, 'money.ts has a doc suggestion');
    engine.provider.markUsed(first.id, decision.entityId);
    engine.provider.dismiss(first.id, doc.entityId);
    const stored = engine.provider.getSuggestion(first.id);
    assert.equal(stored?.status, 'used');
    assert.equal(stored?.items.find((i) => i.entityId === doc.entityId)?.status, 'dismissed');
    assert.equal(stored?.items.find((i) => i.entityId === decision.entityId)?.status, 'used');

    const again = await engine.provider.suggest({
      currentFile: 'src/money.ts',
      cursorPosition: { line: 14, column: 1 },
    });
    assert.ok(!again.items.some((i) => i.entityId === doc.entityId), 'the dismissed item is held back for money.ts');
    const elsewhere = await engine.provider.suggest({
      currentFile: 'src/checkout.ts',
      cursorPosition: { line: 13, column: 1 },
    });
    assert.ok(
      elsewhere.items.some((i) => i.entityId === doc.entityId) || ofType(elsewhere, 'doc').length > 0,
      'dismissing in money.ts does not hide docs elsewhere',
    );
    const other = await engine.provider.suggest({
      currentFile: 'src/money.ts',
      cursorPosition: { line: 24, column: 1 },
    });
    engine.provider.dismiss(other.id, other.items[0].entityId);
    const metrics = engine.provider.metrics();
    assert.ok(metrics.count >= 3 && metrics.usedRate > 0 && metrics.dismissedRate > 0, JSON.stringify(metrics));
    assert.ok(metrics.typeDistribution.doc.dismissed >= 1);
    assert.equal(
      metrics.scoreVersusUse.reduce((n, b) => n + b.used, 0),
      1,
    );
    assert.ok(metrics.latencyMs.p50 > 0);
  });

  it('lowers a kind after repeated dismissals, compared with the same query before', async () => {
    const fresh = await openEngine({
      root: demo.root,
      stateDir: join(demo.state, '..', 'state-fb'),
      config: { minRelevanceScore: 0 },
    });
    try {
      await fresh.indexer.refreshAll();
      const q = { currentFile: 'src/pricing.ts', cursorPosition: { line: 18, column: 1 } };
      const before = ofType(await fresh.provider.suggest(q), 'doc').find((i) => /Discounts/.test(i.title));
      assert.ok(before);
      for (let i = 0; i < 8; i++) {
        const s = await fresh.provider.suggest({
          currentFile: 'src/checkout.ts',
          cursorPosition: { line: 13, column: 1 },
        });
        const d = ofType(s, 'doc')[0];
        if (d) fresh.provider.dismiss(s.id, d.entityId);
        const c = ofType(s, 'related_code')[0];
        if (c) fresh.provider.markUsed(s.id, c.entityId);
      }
      const after = ofType(await fresh.provider.suggest(q), 'doc').find((i) => i.entityId === before.entityId);
      assert.ok(after, 'the doc item is still shown for pricing.ts (dismissed elsewhere only)');
      assert.ok(
        after.relevanceScore < before.relevanceScore,
        `doc score fell from ${before.relevanceScore} to ${after.relevanceScore}`,
      );
    } finally {
      fresh.dispose();
    }
  });

  it('honours per-kind settings, minRelevanceScore and maxSuggestions', async () => {
    engine.setConfig({
      enabledKinds: { decision: true, change: true, cochange: true, doc: false, related_code: true, warning: true },
      maxSuggestions: 4,
      minRelevanceScore: 0.5,
    });
    try {
      const s = await engine.provider.suggest({
        currentFile: 'src/pricing.ts',
        cursorPosition: { line: 18, column: 1 },
      });
      assert.equal(ofType(s, 'doc').length, 0);
      assert.ok(s.items.length <= 4);
      assert.ok(s.items.every((i) => i.relevanceScore >= 0.5));
    } finally {
      engine.setConfig({ minRelevanceScore: 0 });
    }
  });

  it('does not let a cancelled query leave git history out of the next one', async () => {
    const fresh = await openEngine({
      root: demo.root,
      stateDir: join(demo.state, '..', 'state-cancel'),
      config: { minRelevanceScore: 0 },
    });
    try {
      await fresh.indexer.refreshAll();
      const ac = new AbortController();
      const q = { currentFile: 'src/cart.ts', cursorPosition: { line: 14, column: 1 } };
      const cancelled = fresh.provider.suggest(q, { signal: ac.signal });
      setTimeout(() => ac.abort(), 2);
      await cancelled.catch(() => undefined);
      const next = await fresh.provider.suggest(q);
      assert.ok(ofType(next, 'change').length > 0, `changes after a cancelled query; notes: ${next.notes?.join('; ')}`);
      assert.ok(!(next.notes ?? []).some((n) => /Not a git repository/.test(n)));
    } finally {
      fresh.dispose();
    }
  });

  it('rejects feedback for an unknown suggestion or item with a clear error', () => {
    assert.throws(() => engine.provider.markUsed('sug_nope', 0), /No suggestion with id 'sug_nope'/);
  });
});

describe('related files as the workspace changes', function () {
  this.timeout(60000);

  it('keeps answering after an edit and drops a deleted file', async () => {
    const demo = makeDemo();
    const engine = await openEngine({ root: demo.root, stateDir: demo.state, config: { minRelevanceScore: 0 } });
    try {
      await engine.indexer.refreshAll();
      const paths = () => engine.history.related('src/pricing.ts').map((r) => r.path);
      assert.ok(paths().includes('src/cart.ts'), `cart.ts changes with pricing.ts: ${paths().join(', ')}`);

      writeFileSync(join(demo.root, 'src/checkout.ts'), '// edited\n', { flag: 'a' });
      engine.indexer.fileChanged('src/checkout.ts');
      assert.ok(paths().includes('src/cart.ts'), 'an edit elsewhere changes nothing');

      // A change reported under a path whose parent is a file is ignored, not thrown.
      assert.doesNotThrow(() => engine.indexer.fileChanged('src/cart.ts/inner.ts'));

      rmSync(join(demo.root, 'src/cart.ts'));
      engine.indexer.fileChanged('src/cart.ts', true);
      const deadline = Date.now() + 5000;
      while (paths().includes('src/cart.ts') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(!paths().includes('src/cart.ts'), 'a deleted file is no longer suggested');
    } finally {
      engine.dispose();
      demo.cleanup();
    }
  });
});

describe('rebuilding the index', function () {
  this.timeout(60000);

  it('mines history again and answers as before', async () => {
    const demo = makeDemo();
    const engine = await openEngine({ root: demo.root, stateDir: demo.state, config: { minRelevanceScore: 0 } });
    try {
      await engine.indexer.refreshAll();
      const before = { history: engine.cochange.commitCount, related: engine.history.related('src/pricing.ts') };
      assert.ok(before.history > 0);
      const cache = readdirSync(demo.state, { recursive: true })
        .map(String)
        .find((f) => f.endsWith('cochange.bin'));
      assert.ok(cache, 'co-change is cached');
      const minedAt = statSync(join(demo.state, cache)).mtimeMs;
      await new Promise((r) => setTimeout(r, 20));
      const seen: number[] = [];
      const stats = await engine.indexer.rebuildIndex({ onProgress: (done) => seen.push(done) });
      assert.ok(stats.files > 0 && seen.length > 0, 'progress was reported');
      assert.deepEqual(engine.cochange.commitCount, before.history, 'co-change mined again up to HEAD');
      assert.deepEqual(engine.history.related('src/pricing.ts'), before.related);
      assert.ok(statSync(join(demo.state, cache)).mtimeMs > minedAt, 'the co-change cache is written again');
    } finally {
      engine.dispose();
      demo.cleanup();
    }
  });
});

describe('ProactiveContextProvider on awkward input', function () {
  this.timeout(60000);
  let base: string;
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'pc-provider-bad-'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('skips broken reports, ADRs without status and binary .md files, and says when there is no git', async () => {
    const root = join(base, 'ws');
    mkdirSync(join(root, 'docs', 'adr'), { recursive: true });
    mkdirSync(join(root, 'reports'), { recursive: true });
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(
      join(root, 'src', 'ledger.ts'),
      'export function post(amount: number): number {\n  return amount;\n}\n',
    );
    writeFileSync(
      join(root, 'docs', 'adr', '0001-use-a-ledger.md'),
      '# 1. Use a ledger\n\nWe post every amount through `src/ledger.ts`.\n',
    );
    writeFileSync(join(root, 'docs', 'adr', '0002-binary.md'), Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]));
    writeFileSync(
      join(root, 'reports', 'junit.xml'),
      '<testsuites><testsuite name="x"><testcase name="broken"><failure>',
    );
    writeFileSync(join(root, 'reports', 'results.json'), '{ "testResults": [ ');
    const logger = new MemoryLogger();
    const engine = await openEngine({ root, stateDir: join(base, 'state'), logger, config: { minRelevanceScore: 0 } });
    try {
      await engine.indexer.refreshAll();
      const s = await engine.provider.suggest({ currentFile: 'src/ledger.ts', cursorPosition: { line: 2, column: 1 } });
      const adr = s.items.find((i) => i.type === 'decision');
      assert.ok(adr && /0001/.test(adr.title), 'the ADR without a status still links');
      assert.ok(
        (s.notes ?? []).some((n) => /Not a git repository/.test(n)),
        `notes: ${s.notes?.join('; ')}`,
      );
      assert.ok(
        logger.lines.some((l) => /0002-binary\.md/.test(l.message)),
        'the binary .md is skipped with a logged reason',
      );
      assert.ok(
        logger.lines.some((l) => /junit\.xml/.test(l.message)),
        'the broken report is skipped with a logged reason',
      );
    } finally {
      engine.dispose();
    }
  });
});
