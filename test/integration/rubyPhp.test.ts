// Ruby and PHP files in the real editor: the code index reads them, so the panel names the method
// at the cursor and shows who calls it from another file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { workspaceRoot, writeWorkspaceFile } from './chatSupport';
import { closeAllEditors, openAt, testApi, waitForPanel } from './support';

const RUBY_DEF = 'rbapp/app/models/ledger.rb';
const RUBY_CALLER = 'rbapp/app/services/settle.rb';
const PHP_DEF = 'phpapp/src/Billing/Ledger.php';
const PHP_CALLER = 'phpapp/src/Checkout/Settle.php';

suite('Ruby and PHP in the panel', () => {
  suiteSetup(() => {
    writeWorkspaceFile(
      RUBY_DEF,
      'class Ledger\n  def self.open_books(year)\n    new\n  end\n\n  def balance\n    0\n  end\nend\n',
    );
    writeWorkspaceFile(RUBY_CALLER, 'class Settle\n  def call\n    Ledger.open_books(2026).balance\n  end\nend\n');
    writeWorkspaceFile(
      PHP_DEF,
      '<?php\nnamespace Acme\\Billing;\n\nfinal class Ledger\n{\n    public static function openBooks(int $year): self\n    {\n        return new self();\n    }\n}\n',
    );
    writeWorkspaceFile(
      PHP_CALLER,
      '<?php\nnamespace Acme\\Checkout;\n\nuse Acme\\Billing\\Ledger;\n\nfinal class Settle\n{\n    public function run(): void\n    {\n        Ledger::openBooks(2026);\n    }\n}\n',
    );
  });

  suiteTeardown(async () => {
    await closeAllEditors();
    for (const dir of ['rbapp', 'phpapp']) fs.rmSync(path.join(workspaceRoot(), dir), { recursive: true, force: true });
  });

  test('a Ruby class method shows its caller in another file', async function () {
    this.timeout(150_000);
    const api = await testApi();
    await openAt(RUBY_DEF, 3);
    // The new files reach the index through the file watcher; wait for the panel, not for time.
    const state = await waitForPanel(
      api,
      (s) =>
        s.phase === 'ready' &&
        s.file === RUBY_DEF &&
        s.items.some((i) => i.type === 'related_code' && i.location.path === RUBY_CALLER),
      140_000,
      `${RUBY_CALLER} as a caller in the panel for ${RUBY_DEF}`,
    );
    assert.equal(state.symbol, 'open_books');
    const caller = state.items.find((i) => i.location.path === RUBY_CALLER)!;
    assert.equal(caller.location.line, 3);
    assert.match(caller.reason, /calls open_books/);
  });

  test('a PHP static method shows its caller through a use import', async function () {
    this.timeout(150_000);
    const api = await testApi();
    await openAt(PHP_DEF, 8);
    const state = await waitForPanel(
      api,
      (s) =>
        s.phase === 'ready' &&
        s.file === PHP_DEF &&
        s.items.some((i) => i.type === 'related_code' && i.location.path === PHP_CALLER),
      140_000,
      `${PHP_CALLER} as a caller in the panel for ${PHP_DEF}`,
    );
    assert.equal(state.symbol, 'openBooks');
    const caller = state.items.find((i) => i.location.path === PHP_CALLER)!;
    assert.equal(caller.location.line, 10);
    assert.match(caller.reason, /calls openBooks \(resolved/);
  });
});
