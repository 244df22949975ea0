import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KINDS, SUGGESTION_TYPES, countOf, kindLabel } from '../../../src/shared/kinds';
import { PANEL_ITEM_TYPES } from '../../../src/shared/protocol';

const ROOT = join(__dirname, '..', '..', '..', '..');

describe('the kinds table', () => {
  it('lists every kind once, in order, with its own id', () => {
    assert.deepEqual(SUGGESTION_TYPES, ['decision', 'warning', 'change', 'cochange', 'related_code', 'doc']);
    for (const [id, k] of Object.entries(KINDS)) assert.equal(k.id, id);
    const orders = Object.values(KINDS).map((k) => k.order);
    assert.equal(new Set(orders).size, orders.length, 'two kinds share an order');
    assert.equal(PANEL_ITEM_TYPES, SUGGESTION_TYPES, 'the panel keeps an order of its own');
  });

  it('names a boolean setting of package.json for each kind, and every show.* setting is a kind', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { type: string; default: unknown }> } };
    };
    const props = pkg.contributes.configuration.properties;
    for (const k of Object.values(KINDS)) {
      const p = props[`proactiveContext.${k.setting}`];
      assert.ok(p, `${k.id}: proactiveContext.${k.setting} is not a setting`);
      assert.equal(p.type, 'boolean');
      assert.equal(p.default, true);
    }
    const shown = Object.keys(props).filter((k) => k.startsWith('proactiveContext.show.'));
    assert.deepEqual(
      shown.sort(),
      Object.values(KINDS)
        .map((k) => `proactiveContext.${k.setting}`)
        .sort(),
    );
  });

  it('counts and labels in words', () => {
    assert.equal(countOf('change', 1), '1 recent change');
    assert.equal(countOf('related_code', 3), '3 callers');
    assert.equal(kindLabel('change'), 'Recent change');
  });

  it('is the only place the surfaces take kind titles and icons from', () => {
    // A second table of titles or icons would drift from this one, as five did before.
    const files = [
      'src/webview/labels.ts',
      'src/webview/elements.ts',
      'src/vscode/views/panelModel.ts',
      'src/vscode/chat/chatText.ts',
      'src/cli/commands/suggest.ts',
      'src/mcp/tools.ts',
      'src/core/types.ts',
    ];
    for (const f of files) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      assert.doesNotMatch(text, /'call-incoming'|'git-commit'|related_code: '/, `${f} holds its own kind table`);
    }
  });
});
