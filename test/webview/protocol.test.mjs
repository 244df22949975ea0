// The panel protocol guards, view-model builder and HTML, checked in plain Node.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildNodeModules, fixtureItems, fixtureState, NOW, tempDir } from './support.mjs';

describe('Suggestions panel protocol (Node)', function () {
  this.timeout(30_000);
  let dir;
  let protocol;
  let panelModel;
  let panelHtml;

  before(async () => {
    dir = tempDir('pc-webview-node-');
    ({ protocol, panelModel, panelHtml } = await buildNodeModules(dir));
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('isHostMessage', () => {
    it('accepts a state built by buildPanelState and indexing progress', () => {
      assert.equal(protocol.isHostMessage(protocol.stateMessage(fixtureState(panelModel))), true);
      assert.equal(protocol.isHostMessage(protocol.indexingMessage({ done: 3, total: 10 })), true);
      assert.equal(protocol.isHostMessage(protocol.indexingMessage(null)), true);
    });

    it('rejects unknown types, other versions and non-objects', () => {
      const good = protocol.stateMessage(fixtureState(panelModel));
      for (const bad of [
        null,
        undefined,
        'state',
        42,
        [good],
        { ...good, type: 'script' },
        { ...good, version: 2 },
        { type: 'state', state: good.state },
        { type: 'open', version: 1, entityId: 'x' },
      ]) {
        assert.equal(protocol.isHostMessage(bad), false, JSON.stringify(bad)?.slice(0, 80));
      }
    });

    it('rejects states whose fields have the wrong type or size', () => {
      const state = fixtureState(panelModel);
      const withItem = (patch) => ({ ...state, items: [{ ...state.items[0], ...patch }, ...state.items.slice(1)] });
      const cases = {
        'unknown phase': { ...state, phase: 'exploded' },
        'title is a number': withItem({ title: 7 }),
        'unknown item type': withItem({ type: 'script' }),
        'empty entityId': withItem({ entityId: '' }),
        'oversize entityId': withItem({ entityId: 'x'.repeat(protocol.LIMITS.entityId + 1) }),
        'oversize title': withItem({ title: 'x'.repeat(protocol.LIMITS.text + 1) }),
        'score is a string': withItem({ relevanceScore: '0.9' }),
        'score is NaN': withItem({ relevanceScore: Number.NaN }),
        'icon smuggles a class': withItem({ icon: 'law other-class' }),
        'line 0': withItem({ location: { path: 'a.ts', line: 0 } }),
        'location missing': withItem({ location: undefined }),
        'notes not strings': { ...state, notes: [{ text: 'x' }] },
        'too many items': {
          ...state,
          items: Array.from({ length: protocol.LIMITS.items + 1 }, (_, i) => ({ ...state.items[0], index: i })),
        },
        'counts missing a kind': { ...state, counts: { total: 1 } },
        'indexing done > total': { ...state, indexing: { done: 5, total: 4 } },
        'file is an object': { ...state, file: { path: 'a' } },
      };
      for (const [name, bad] of Object.entries(cases)) {
        assert.equal(protocol.isHostMessage(protocol.stateMessage(bad)), false, name);
      }
      assert.equal(protocol.isHostMessage({ type: 'indexing', version: 1, progress: { done: -1, total: 3 } }), false);
      assert.equal(protocol.isHostMessage({ type: 'indexing', version: 1 }), false);
    });
  });

  describe('isPageMessage', () => {
    it('accepts every command the page sends', () => {
      assert.equal(protocol.isPageMessage(protocol.readyMessage()), true);
      for (const t of ['open', 'useful', 'dismiss', 'pin', 'copy'])
        assert.equal(protocol.isPageMessage(protocol.itemCommand(t, 'adr:0007')), true, t);
      for (const t of ['refresh', 'showLog', 'openSettings'])
        assert.equal(protocol.isPageMessage(protocol.panelCommand(t)), true, t);
    });

    it('rejects malformed commands', () => {
      for (const bad of [
        { type: 'open', version: 1 },
        { type: 'open', version: 1, entityId: 5 },
        { type: 'open', version: 1, entityId: '' },
        { type: 'dismiss', version: 1, entityId: 'x'.repeat(protocol.LIMITS.entityId + 1) },
        { type: 'runCommand', version: 1, command: 'workbench.action.quit' },
        { type: 'refresh' },
        { type: 'showLog', version: '1' },
        { type: 'ready', version: 0 },
        'ready',
        null,
      ]) {
        assert.equal(protocol.isPageMessage(bad), false, JSON.stringify(bad));
      }
    });
  });

  describe('buildPanelState', () => {
    it('counts items per kind, computes ages and icons host-side, and keeps the ranking index', () => {
      const state = fixtureState(panelModel);
      assert.equal(state.phase, 'ready');
      assert.equal(state.counts.total, fixtureItems().length);
      assert.deepEqual(
        {
          decision: state.counts.decision,
          warning: state.counts.warning,
          change: state.counts.change,
          cochange: state.counts.cochange,
          related_code: state.counts.related_code,
          doc: state.counts.doc,
        },
        { decision: 2, warning: 1, change: 5, cochange: 2, related_code: 2, doc: 1 },
      );
      const adr = state.items.find((i) => i.entityId === 'adr:0007');
      assert.equal(adr.age, '3 days ago');
      assert.equal(adr.icon, 'law');
      assert.equal(adr.useful, true);
      assert.deepEqual(
        state.items.map((i) => i.index),
        state.items.map((_, n) => n),
      );
      assert.equal(state.items.find((i) => i.type === 'warning').age, undefined);
    });

    it('turns a ready state without items into empty, folds multi-line titles, and clips long text to the limits', () => {
      assert.equal(panelModel.buildPanelState({ phase: 'ready', items: [] }).phase, 'empty');
      const long = 'y'.repeat(10_000);
      const state = panelModel.buildPanelState({
        phase: 'ready',
        now: NOW,
        items: [
          {
            type: 'change',
            entityId: 'c1',
            title: 'Fix it\n\nLong body',
            summary: long,
            reason: long,
            relevanceScore: 3,
            location: { path: 'a.ts', line: 0 },
          },
        ],
      });
      assert.equal(state.items[0].title, 'Fix it Long body');
      assert.equal(state.items[0].reason.length, protocol.LIMITS.text);
      assert.equal(state.items[0].relevanceScore, 1);
      assert.equal(state.items[0].location.line, undefined);
      assert.equal(protocol.isPanelState(state), true);
    });

    it('drops duplicate entity ids', () => {
      const [a] = fixtureItems();
      const state = panelModel.buildPanelState({ phase: 'ready', items: [a, { ...a, title: 'again' }] });
      assert.equal(state.items.length, 1);
      assert.equal(state.counts.total, 1);
    });

    it('labels ages the way people say them', () => {
      const min = 60_000;
      const [a] = fixtureItems();
      const age = (ms) => panelModel.toPanelItem({ ...a, timestamp: NOW - ms }, 0, NOW).age;
      assert.equal(age(10_000), 'just now');
      assert.equal(age(5 * min), '5 min ago');
      assert.equal(age(60 * min), '1 hour ago');
      assert.equal(age(26 * 60 * min), '1 day ago');
      assert.equal(age(65 * 24 * 60 * min), '2 months ago');
      assert.equal(age(800 * 24 * 60 * min), '2 years ago');
    });
  });

  describe('panelHtml', () => {
    it('locks the page down with a nonce script and no inline or remote content', () => {
      const html = panelHtml.panelHtml({
        cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
        nonce: 'abc123',
        scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
        stylesheetUris: ['https://file+.vscode-resource.vscode-cdn.net/ext/dist/media/codicon.css'],
      });
      const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)[1];
      assert.equal(
        csp,
        "default-src 'none'; style-src https://file+.vscode-resource.vscode-cdn.net; font-src https://file+.vscode-resource.vscode-cdn.net; script-src 'nonce-abc123'; img-src https://file+.vscode-resource.vscode-cdn.net",
      );
      assert.match(
        html,
        /<script nonce="abc123" src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\.js"><\/script>/,
      );
      assert.equal((html.match(/<script/g) ?? []).length, 1);
      assert.doesNotMatch(html, /style="/);
    });
  });
});

describe('Suggestions page source', () => {
  it('never turns strings into markup', () => {
    const dirUrl = new URL('../../src/webview/', import.meta.url);
    const files = fs.readdirSync(dirUrl).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length > 0);
    for (const f of files) {
      const src = fs.readFileSync(new URL(f, dirUrl), 'utf8');
      assert.doesNotMatch(
        src,
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment/,
        f,
      );
    }
  });
});
