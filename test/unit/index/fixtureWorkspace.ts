import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** test/fixtures/index, found from the compiled test folder. */
export const fixturesDir = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'index');

/**
 * Copies a fixture workspace into a fresh temp folder. Sources are stored as `name.ts.fixture` so
 * the project's own compiler and linter leave them alone; the copy drops that suffix.
 */
export function copyFixture(name: string): string {
  const dest = mkdtempSync(join(tmpdir(), `pc-index-${name}-`));
  const copy = (from: string, to: string) => {
    for (const e of readdirSync(from, { withFileTypes: true })) {
      const target = join(to, e.name.replace(/\.fixture$/, ''));
      if (e.isDirectory()) {
        mkdirSync(target, { recursive: true });
        copy(join(from, e.name), target);
      } else copyFileSync(join(from, e.name), target);
    }
  };
  copy(join(fixturesDir, name), dest);
  return dest;
}

/** A workspace of small real files in a fresh temp folder. */
export function writeWorkspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'pc-index-ws-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}
