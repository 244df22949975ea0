import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const REPO = resolve(__dirname, '..', '..', '..', '..');
const RULES = ['max-lines-per-function', 'complexity'];

/** The size and complexity findings for a few lines linted as a file at `path`, with the project's own config. */
async function sizeFindings(path: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: REPO,
    overrideConfig: [
      tseslint.configs.disableTypeChecked,
      { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: join(REPO, path) });
  return result.messages.filter((m) => RULES.includes(m.ruleId ?? '')).map((m) => `${m.ruleId}: ${m.message}`);
}

const body = (n: number) => Array.from({ length: n }, (_, i) => `  total += ${i};`).join('\n');
const long = (n: number) => `export function f(): number {\n  let total = 0;\n${body(n)}\n  return total;\n}\n`;
const ladder = (n: number) =>
  `export function g(x: number): number {\n${Array.from({ length: n }, (_, i) => `  if (x === ${i}) return ${i};`).join('\n')}\n  return -1;\n}\n`;

describe('function size and complexity in lint', function () {
  this.timeout(60_000);

  it('warns on a function over 80 lines and on a ladder over 25 branches', async () => {
    assert.deepEqual(await sizeFindings('src/core/probe.ts', long(70)), []);
    const tooLong = await sizeFindings('src/core/probe.ts', long(90));
    assert.equal(tooLong.length, 1, tooLong.join('\n'));
    assert.match(tooLong[0], /^max-lines-per-function/);
    assert.deepEqual(await sizeFindings('src/core/probe.ts', ladder(20)), []);
    const tooComplex = await sizeFindings('src/core/probe.ts', ladder(30));
    assert.equal(tooComplex.length, 1, tooComplex.join('\n'));
    assert.match(tooComplex[0], /^complexity/);
  });

  it('accepts a function that states its reason', async () => {
    const reasoned = `// eslint-disable-next-line max-lines-per-function -- one case per form\n${long(90)}`;
    assert.deepEqual(await sizeFindings('src/core/probe.ts', reasoned), []);
  });
});
