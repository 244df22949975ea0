// Decision records kept inside a monorepo package (packages/api/docs/architecture/NNN-*.md), not in
// a top-level docs/adr: the panel finds them and shows the one that governs the code at the cursor.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { workspaceRoot, writeWorkspaceFile } from './chatSupport';
import { closeAllEditors, openAt, testApi, waitForPanel } from './support';

const RECORD = 'packages/api/docs/architecture/001-use-knex.md';
const CODE = 'packages/api/src/db/users.ts';

suite('decision records in a package folder', () => {
  suiteSetup(() => {
    writeWorkspaceFile('packages/api/package.json', '{ "name": "api", "private": true }\n');
    writeWorkspaceFile(
      RECORD,
      '# 1. Use Knex for SQL\n\n## Status\n\nAccepted\n\n## Context\n\nHand-written SQL strings drifted from the schema.\n\n## Decision\n\nEvery query of the API goes through knex.\n\n## Consequences\n\nMigrations are knex migrations too.\n',
    );
    writeWorkspaceFile(
      'packages/api/docs/architecture/002-validate-with-zod.md',
      '# 2. Validate requests with zod\n\n## Status\n\nAccepted\n\n## Context\n\nBad input reached the database.\n\n## Decision\n\nRequest bodies are parsed with zod schemas.\n',
    );
    writeWorkspaceFile(
      CODE,
      "import knex from 'knex';\n\nconst db = knex({ client: 'pg' });\n\nexport function findUser(id: string) {\n  return db('users').where({ id }).first();\n}\n",
    );
  });

  suiteTeardown(async () => {
    await closeAllEditors();
    fs.rmSync(path.join(workspaceRoot(), 'packages'), { recursive: true, force: true });
  });

  test('the record found in packages/api/docs/architecture is shown for the code that uses knex', async function () {
    this.timeout(150_000);
    const api = await testApi();
    await openAt(CODE, 6);
    // The new files reach the engine through the file watcher; wait for the panel, not for time.
    const state = await waitForPanel(
      api,
      (s) => s.phase === 'ready' && s.file === CODE && s.items.some((i) => i.location.path === RECORD),
      140_000,
      `${RECORD} in the panel for ${CODE}`,
    );
    const item = state.items.find((i) => i.location.path === RECORD)!;
    assert.equal(item.type, 'decision');
    assert.match(item.title, /Use Knex for SQL/);
    assert.match(item.reason, /knex/i, `the reason says why: ${item.reason}`);
  });
});
