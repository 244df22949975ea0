import { strict as assert } from 'node:assert';
import { decisionWorkspace } from './decisionWorkspace';
import { usedIdentifier } from '../../../src/core/sources/decisions/codeUse';

/** Six modules, each with its settings class built on a framework's `AppConfig`, and thirty other files. */
function modules(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`src/modules/m${i}/settings.ts`] =
      `import { AppConfig } from 'framework';\n\n/** Settings of module ${i}. */\nexport class Module${i}Config extends AppConfig {\n  label = 'acme_m${i}';\n}\n`;
    files[`src/modules/m${i}/models.ts`] = `export function model${i}(): number {\n  return ${i};\n}\n`;
  }
  for (let i = 0; i < 30; i++) files[`src/parts/part${i}.ts`] = `export const part${i} = ${i};\n`;
  return files;
}

describe('decision records linked by a name they write as code', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(() => ({
    ...modules(6),
    'src/text/replace.ts': 'export function replaceAll(text: string): string {\n  return text.trim();\n}\n',
    'docs/adr/0001-label-prefix.md':
      '# 1. Label prefix\n\n## Status\n\nAccepted\n\n## Decision\n\nEvery module declares its config as an `AppConfig` whose `label` starts with `acme_`, so that the config labels of this project never collide with others.\n',
    'docs/adr/0002-replace-kong-with-nginx.md':
      '# 2. Replace Kong with Nginx\n\n## Status\n\nAccepted\n\n## Decision\n\nThe ingress controller is Nginx; Kong is removed from the cluster.\n',
  }));

  it('links a record to a file that uses a name the record writes as code, and names it', () => {
    const shown = decisions('src/modules/m3/settings.ts', 'Module3Config', 4);
    assert.deepEqual(
      shown.map((i) => `${i.location.path}: ${i.reason}`),
      ['docs/adr/0001-label-prefix.md: this file uses `AppConfig`, which ADR 0001 names'],
    );
  });

  it('does not link it to a file of the same module that does not use the name', () => {
    assert.deepEqual(decisions('src/modules/m3/models.ts', 'model3', 1), []);
  });

  it('never links a record by the verb of its title ("Replace Kong with Nginx" and a file named replace)', () => {
    assert.deepEqual(
      decisions('src/text/replace.ts', 'replaceAll', 1).map((i) => `${i.location.path}: ${i.reason}`),
      [],
    );
  });
});

describe('decision records: names of code, not of products', () => {
  const links = (...names: string[]) => ({
    paths: [],
    codeIdentifiers: new Map(names.map((n) => [n, 1])),
    camelWords: new Map<string, number>(),
  });

  it('reads no name of code in a product written with an inner capital (`JavaScript`, `GitHub`)', () => {
    const used = new Set(['javascript', 'github', 'tenantkey']);
    assert.equal(
      usedIdentifier(links('JavaScript', 'GitHub') as never, used, () => false),
      undefined,
    );
    assert.equal(
      usedIdentifier(links('JavaScript', 'tenantKey') as never, used, () => false),
      'tenantKey',
    );
  });
});
