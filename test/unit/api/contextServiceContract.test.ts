import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextService, UnknownSubscriptionError } from '../../../src/core/api/contextService';
import { ContextError } from '../../../src/core/api/errors';
import { TempRepo } from '../git/repoFixture';

const CALC = [
  'export function total(xs: number[]): number {',
  '  let t = 0;',
  '  for (const x of xs) t += x;',
  '  return t;',
  '}',
  '',
].join('\n');
const TEST = ["import { total } from '../src/calc';", '', 'total([1, 2]);', ''].join('\n');
const ADR = [
  '# 1. Totals in cents',
  '',
  '## Status',
  '',
  'Accepted',
  '',
  '## Decision',
  '',
  '`total` in `src/calc.ts` adds cents, never floats.',
  '',
].join('\n');

/** The members of the service itself: its lifetime, its root and its settings. */
const LIFECYCLE = [
  'root',
  'stateDir',
  'config',
  'setConfig',
  'gitAllowed',
  'allowGit',
  'notices',
  'onDispose',
  'dispose',
];

/**
 * The service's concerns (`service.watches`, …) and each one's public members. A member removed,
 * renamed or moved to another concern changes this table; each concern's behaviour below must hold.
 */
const CONCERNS: Record<string, readonly string[]> = {
  workspace: [
    'startBackgroundWork',
    'refreshAll',
    'rebuildIndex',
    'fileChanged',
    'activity',
    'indexingProgress',
    'onDidChangeIndexing',
    'onDidChangeWorkspaceData',
    'storeStats',
    'flush',
    'historyStats',
    'symbolAt',
    'resolvePath',
    'readFile',
    'fileAtRevision',
    'relatedFiles',
    'exportSnapshot',
    'gitDirectories',
    'ignoredPaths',
  ],
  suggestions: [
    'suggestAt',
    'suggestForInput',
    'suggestForPath',
    'complete',
    'hasEnrichment',
    'enrich',
    'addEnrichmentSource',
    'explainWhy',
    'passes',
    'feedback',
    'keep',
    'markShown',
    'metrics',
    'failingTests',
  ],
  decisions: ['list', 'record', 'anchors', 'search', 'propose', 'fromReply'],
  subscriptions: ['subscribe', 'unsubscribe', 'unsubscribeAll', 'list', 'get', 'read', 'materializeAll', 'onDidChange'],
  watches: [
    'add',
    'remove',
    'removeAll',
    'list',
    'read',
    'latestFiring',
    'firingsSince',
    'start',
    'onDidFire',
    'onDidChange',
  ],
  memory: ['search', 'saveEpisode', 'recentEpisodes'],
  chat: ['context'],
};

/** The names a prototype defines, but its constructor. */
function membersOf(proto: object): string[] {
  return Object.getOwnPropertyNames(proto)
    .filter((n) => n !== 'constructor')
    .sort();
}

describe('ContextService contract', function () {
  this.timeout(120000);
  let repo: TempRepo;
  let stateDir: string;
  let service: ContextService;

  before(async () => {
    repo = new TempRepo();
    repo.commit('add calc', { 'src/calc.ts': CALC, 'docs/adr/0001-totals-in-cents.md': ADR });
    repo.commit('test calc', { 'src/calc.ts': CALC.replace('t += x;', 't += x; // cents'), 'test/calc.test.ts': TEST });
    repo.commit('guard the loop', {
      'src/calc.ts': CALC.replace('t += x;', 'if (Number.isFinite(x)) t += x;'),
      'test/calc.test.ts': TEST + 'total([]);\n',
    });
    stateDir = mkdtempSync(join(tmpdir(), 'pc-contract-'));
    service = await ContextService.open({
      root: repo.dir,
      stateDir,
      config: { minRelevanceScore: 0, recentChangeDays: 3650 },
    });
    await service.workspace.startBackgroundWork();
    await service.workspace.refreshAll();
  });

  after(() => {
    service.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('has exactly its lifecycle members and its concerns, each concern exactly its members', () => {
    assert.deepEqual(membersOf(ContextService.prototype), [...LIFECYCLE].sort());
    assert.deepEqual(
      Object.getOwnPropertyNames(ContextService).filter((n) => !['length', 'name', 'prototype'].includes(n)),
      ['open'],
    );
    // The service's own properties are its concerns and nothing else (its state is private by the language).
    assert.deepEqual(Object.keys(service).sort(), Object.keys(CONCERNS).sort());
    for (const [concern, members] of Object.entries(CONCERNS)) {
      const facet = (service as unknown as Record<string, object>)[concern];
      assert.deepEqual(membersOf(Object.getPrototypeOf(facet) as object), [...members].sort(), concern);
      assert.deepEqual(Object.keys(facet), [], `${concern} exposes no state`);
    }
  });

  it('lifecycle: tells its root, state folder and settings, and takes new settings', () => {
    assert.equal(service.root, repo.dir);
    assert.equal(service.stateDir, stateDir);
    assert.equal(service.gitAllowed, true);
    const before = service.config.minRelevanceScore;
    service.setConfig({ minRelevanceScore: 0.25 });
    assert.equal(service.config.minRelevanceScore, 0.25);
    service.setConfig({ minRelevanceScore: before });
  });

  it('workspace: indexes code, mines history, and keeps paths inside the root', async () => {
    assert.equal(service.workspace.symbolAt('src/calc.ts', 2)?.name, 'total');
    assert.equal(service.workspace.historyStats().commits, 3);
    assert.ok(
      service.workspace.relatedFiles('src/calc.ts').some((r) => r.path === 'test/calc.test.ts'),
      JSON.stringify(service.workspace.relatedFiles('src/calc.ts')),
    );
    assert.equal(service.workspace.resolvePath('./src/calc.ts'), 'src/calc.ts');
    assert.throws(() => service.workspace.resolvePath('../outside.ts'), /outside the workspace/);
    assert.equal(service.workspace.readFile('src/calc.ts'), readFileSync(join(repo.dir, 'src/calc.ts'), 'utf8'));
    assert.throws(
      () => service.workspace.readFile('src/missing.ts'),
      (e: unknown) => e instanceof ContextError && e.reason === 'not_found',
    );
    assert.equal(
      await service.workspace.fileAtRevision('HEAD', 'src/calc.ts'),
      readFileSync(join(repo.dir, 'src/calc.ts'), 'utf8'),
    );
    await assert.rejects(service.workspace.fileAtRevision('--output=/tmp/x', 'src/calc.ts'), ContextError);
  });

  it('suggestions: answers a place with the decision that governs it, and explains the line', async () => {
    const first = await service.suggestions.suggestAt({ file: 'src/calc.ts', line: 2 });
    const answer = await service.suggestions.complete(first);
    assert.ok(
      answer.items.some((i) => i.type === 'decision'),
      JSON.stringify(answer.items.map((i) => i.type)),
    );
    const why = await service.suggestions.explainWhy({ file: 'src/calc.ts', line: 3 });
    assert.ok(why.lineHistory.length > 0, 'the line has history');
  });

  it('decisions: lists the records and writes a new one in the repository', async () => {
    assert.deepEqual(
      (await service.decisions.list()).map((d) => d.title),
      ['Totals in cents'],
    );
    const path = await service.decisions.record({
      title: 'Round half to even',
      context: 'Totals are summed in cents.',
      decision: 'Round half to even when converting.',
      consequences: 'Reports match the bank.',
    });
    assert.ok(existsSync(join(repo.dir, path)), path);
    assert.deepEqual((await service.decisions.list()).map((d) => d.title).sort(), [
      'Round half to even',
      'Totals in cents',
    ]);
    // A reply without the drafting JSON still yields a draft to review, the reply as its decision.
    assert.equal(service.decisions.fromReply('Cents', '  Keep totals in cents.  ').decision, 'Keep totals in cents.');
  });

  it('subscriptions: subscribes, reads, tells listeners, and refuses an unknown id', async () => {
    let changes = 0;
    const listening = service.subscriptions.onDidChange(() => changes++);
    try {
      const { subscription } = await service.subscriptions.subscribe({ kind: 'file', target: 'src/calc.ts' });
      assert.ok(changes > 0, 'listeners are told');
      assert.deepEqual(
        service.subscriptions.list().list.map((s) => s.id),
        [subscription.id],
      );
      assert.equal(service.subscriptions.get(subscription.id)?.id, subscription.id);
      const read = await service.subscriptions.read(subscription.id);
      assert.ok(read.text.includes('export function total'), read.text);
      assert.equal(service.subscriptions.unsubscribe(subscription.id).id, subscription.id);
      assert.deepEqual(service.subscriptions.list().list, []);
      assert.throws(() => service.subscriptions.unsubscribe(subscription.id), UnknownSubscriptionError);
    } finally {
      listening.dispose();
    }
  });

  it('watches: adds, lists, reads, renews and removes a watch, and refuses an unknown id', () => {
    const { watch, renewed } = service.watches.add({ patterns: [{ type: 'file', pattern: 'src/**' }] });
    assert.equal(renewed, false);
    assert.deepEqual(
      service.watches.list().map((w) => w.id),
      [watch.id],
    );
    assert.equal(service.watches.read(watch.id).watch.id, watch.id);
    assert.equal(service.watches.add({ patterns: [{ type: 'file', pattern: 'src/**' }] }).renewed, true);
    assert.equal(service.watches.remove(watch.id).id, watch.id);
    assert.deepEqual(service.watches.list(), []);
    assert.throws(() => service.watches.remove(watch.id), /watch/i);
    assert.deepEqual(service.watches.firingsSince(0).firings, []);
  });

  it('memory: keeps a conversation and finds it by its words', async () => {
    service.memory.saveEpisode({
      conversationId: 'c1',
      prompt: 'Why are totals kept in cents?',
      answer: 'Floating point rounding lost money in reports.',
    });
    assert.deepEqual(
      service.memory.recentEpisodes().map((e) => e.conversationId),
      ['c1'],
    );
    const hits = await service.memory.search('rounding cents');
    assert.ok(
      hits.some((h) => h.kind === 'episode' && h.conversationId === 'c1'),
      JSON.stringify(hits),
    );
  });
});
