import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type EngineParts } from '../../../src/core/engine';

describe('the first items of a cold open', () => {
  let root: string;
  let stateDir: string;
  let engine: EngineParts | undefined;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pc-first-items-'));
    stateDir = mkdtempSync(join(tmpdir(), 'pc-first-items-state-'));
    mkdirSync(join(root, 'docs', 'adr'), { recursive: true });
    mkdirSync(join(root, 'src'));
    writeFileSync(
      join(root, 'docs', 'adr', '0001-store-invoices-in-postgres.md'),
      '# 1. Store invoices in Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\n`src/invoices.ts` writes to Postgres.\n',
    );
    writeFileSync(join(root, 'docs', 'guide.md'), '# Guide\n\n## Invoices\n\nHow invoices are kept.\n');
    writeFileSync(join(root, 'src', 'invoices.ts'), 'export function saveInvoice() {\n  return 1;\n}\n');
  });

  afterEach(() => {
    engine?.dispose();
    rmSync(root, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('tells of the decisions as soon as they are read, before the reports and docs are', async () => {
    engine = await openEngine({ root, stateDir, noGit: { reason: 'not trusted yet' } });
    const parts = engine;
    const told: { decisions: number; docs: number }[] = [];
    parts.indexer.onDidChangeData(() =>
      told.push({ decisions: parts.decisions.listEntries().length, docs: parts.docs.sections().length }),
    );
    await parts.indexer.startBackgroundWork();
    // Told once after every source was read before: the decisions' items waited for the docs.
    assert.deepEqual(told[0], { decisions: 1, docs: 0 });
    assert.ok(
      told.some((t) => t.docs > 0),
      JSON.stringify(told),
    );
  });
});
