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

/**
 * The service's public members by concern. A regrouping (`service.watches.add`, …) changes this table
 * and nothing else here: each concern's behaviour below must still hold.
 */
const CONCERNS: Record<string, readonly string[]> = {
  lifecycle: ['root', 'stateDir', 'config', 'setConfig', 'gitAllowed', 'allowGit', 'notices', 'onDispose', 'dispose'],
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
    'suggestionPasses',
    'feedback',
    'keep',
    'markShown',
    'metrics',
    'failingTests',
  ],
  decisions: ['decisions', 'recordDecision', 'decisionAnchors', 'decisionSearch', 'proposeDecisions'],
  subscriptions: [
    'subscribe',
    'unsubscribe',
    'unsubscribeAll',
    'subscriptions',
    'subscription',
    'readSubscription',
    'materializeAll',
    'onDidChangeSubscriptions',
  ],
  watches: [
    'watch',
    'unwatch',
    'unwatchAll',
    'watches',
    'readWatch',
    'latestFiring',
    'firingsSince',
    'startWatching',
    'onDidFireWatch',
    'onDidChangeWatches',
  ],
  memory: ['searchMemory', 'saveEpisode', 'recentEpisodes'],
  chat: ['chatContext'],
};
/** Implementation details on the prototype (TypeScript's `private` is not enforced at run time). */
const PRIVATE = ['constructor', 'lineHistoryOf', 'refreshDecisions', 'safe'];

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
    await service.startBackgroundWork();
    await service.refreshAll();
  });

  after(() => {
    service.dispose();
    repo.dispose();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('has exactly the public members of its concerns, each in one concern', () => {
    const listed = Object.values(CONCERNS).flat();
    assert.equal(new Set(listed).size, listed.length, 'a member listed under two concerns');
    const actual = Object.getOwnPropertyNames(ContextService.prototype).filter((n) => !PRIVATE.includes(n));
    assert.deepEqual([...actual].sort(), [...listed].sort());
    assert.deepEqual(
      Object.getOwnPropertyNames(ContextService).filter((n) => !['length', 'name', 'prototype'].includes(n)),
      ['open'],
    );
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
    assert.equal(service.symbolAt('src/calc.ts', 2)?.name, 'total');
    assert.equal(service.historyStats().commits, 3);
    assert.ok(
      service.relatedFiles('src/calc.ts').some((r) => r.path === 'test/calc.test.ts'),
      JSON.stringify(service.relatedFiles('src/calc.ts')),
    );
    assert.equal(service.resolvePath('./src/calc.ts'), 'src/calc.ts');
    assert.throws(() => service.resolvePath('../outside.ts'), /outside the workspace/);
    assert.equal(service.readFile('src/calc.ts'), readFileSync(join(repo.dir, 'src/calc.ts'), 'utf8'));
    assert.throws(
      () => service.readFile('src/missing.ts'),
      (e: unknown) => e instanceof ContextError && e.reason === 'not_found',
    );
    assert.equal(
      await service.fileAtRevision('HEAD', 'src/calc.ts'),
      readFileSync(join(repo.dir, 'src/calc.ts'), 'utf8'),
    );
    await assert.rejects(service.fileAtRevision('--output=/tmp/x', 'src/calc.ts'), ContextError);
  });

  it('suggestions: answers a place with the decision that governs it, and explains the line', async () => {
    const first = await service.suggestAt({ file: 'src/calc.ts', line: 2 });
    const answer = await service.complete(first);
    assert.ok(
      answer.items.some((i) => i.type === 'decision'),
      JSON.stringify(answer.items.map((i) => i.type)),
    );
    const why = await service.explainWhy({ file: 'src/calc.ts', line: 3 });
    assert.ok(why.lineHistory.length > 0, 'the line has history');
  });

  it('decisions: lists the records and writes a new one in the repository', async () => {
    assert.deepEqual(
      (await service.decisions()).map((d) => d.title),
      ['Totals in cents'],
    );
    const path = await service.recordDecision({
      title: 'Round half to even',
      context: 'Totals are summed in cents.',
      decision: 'Round half to even when converting.',
      consequences: 'Reports match the bank.',
    });
    assert.ok(existsSync(join(repo.dir, path)), path);
    assert.deepEqual((await service.decisions()).map((d) => d.title).sort(), ['Round half to even', 'Totals in cents']);
  });

  it('subscriptions: subscribes, reads, tells listeners, and refuses an unknown id', async () => {
    let changes = 0;
    const listening = service.onDidChangeSubscriptions(() => changes++);
    try {
      const { subscription } = await service.subscribe({ kind: 'file', target: 'src/calc.ts' });
      assert.ok(changes > 0, 'listeners are told');
      assert.deepEqual(
        service.subscriptions().list.map((s) => s.id),
        [subscription.id],
      );
      assert.equal(service.subscription(subscription.id)?.id, subscription.id);
      const read = await service.readSubscription(subscription.id);
      assert.ok(read.text.includes('export function total'), read.text);
      assert.equal(service.unsubscribe(subscription.id).id, subscription.id);
      assert.deepEqual(service.subscriptions().list, []);
      assert.throws(() => service.unsubscribe(subscription.id), UnknownSubscriptionError);
    } finally {
      listening.dispose();
    }
  });

  it('watches: adds, lists, reads, renews and removes a watch, and refuses an unknown id', () => {
    const { watch, renewed } = service.watch({ patterns: [{ type: 'file', pattern: 'src/**' }] });
    assert.equal(renewed, false);
    assert.deepEqual(
      service.watches().map((w) => w.id),
      [watch.id],
    );
    assert.equal(service.readWatch(watch.id).watch.id, watch.id);
    assert.equal(service.watch({ patterns: [{ type: 'file', pattern: 'src/**' }] }).renewed, true);
    assert.equal(service.unwatch(watch.id).id, watch.id);
    assert.deepEqual(service.watches(), []);
    assert.throws(() => service.unwatch(watch.id), /watch/i);
    assert.deepEqual(service.firingsSince(0).firings, []);
  });

  it('memory: keeps a conversation and finds it by its words', async () => {
    service.saveEpisode({
      conversationId: 'c1',
      prompt: 'Why are totals kept in cents?',
      answer: 'Floating point rounding lost money in reports.',
    });
    assert.deepEqual(
      service.recentEpisodes().map((e) => e.conversationId),
      ['c1'],
    );
    const hits = await service.searchMemory('rounding cents');
    assert.ok(
      hits.some((h) => h.kind === 'episode' && h.conversationId === 'c1'),
      JSON.stringify(hits),
    );
  });
});
