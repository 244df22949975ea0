import { strict as assert } from 'node:assert';
import { acceptedRecord, decisionWorkspace } from './decisionWorkspace';

const record = acceptedRecord;

/**
 * A service on Express: most of its TypeScript imports `express`, and many templates, styles and docs
 * sit beside the code, so that `express` is in few of all the paths while being the stack itself.
 */
function expressService(): Record<string, string> {
  const files: Record<string, string> = {
    'docs/adr/0001-use-express.md': record(
      1,
      'Use Express',
      'The service is an Express app: routes are Express routers.',
    ),
    'docs/adr/0002-use-helmet.md': record(2, 'Use Helmet for HTTP security', 'Security headers are set by helmet.'),
    'src/app.ts':
      "import express from 'express';\nimport helmet from 'helmet';\n\nexport function createApp() {\n  const app = express();\n  app.use(helmet());\n  return app;\n}\n",
    'src/middleware/headers.ts':
      "import helmet from 'helmet';\n\nexport function securityHeaders() {\n  return helmet({ frameguard: false });\n}\n",
  };
  for (let i = 0; i < 24; i++)
    files[`src/routes/area${i}.ts`] =
      `import { Router } from 'express';\n\nexport function area${i}Routes(): Router {\n  const r = Router();\n  r.get('/area${i}', (_q, s) => s.send('${i}'));\n  return r;\n}\n`;
  for (let i = 0; i < 6; i++)
    files[`src/lib/util${i}.ts`] = `export function util${i}(n: number): number {\n  return n + ${i};\n}\n`;
  for (let i = 0; i < 60; i++) files[`views/page${i}.njk`] = `<h1>Page ${i}</h1>\n`;
  return files;
}

describe('a record choosing the stack', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(expressService);

  it('is not linked to every file that imports the framework', () => {
    const shown = decisions('src/routes/area3.ts', 'area3Routes', 3);
    assert.deepEqual(
      shown.map((i) => `${i.location.path}: ${i.reason}`),
      [],
    );
  });

  it('is linked where the application is set up', () => {
    const shown = decisions('src/app.ts', 'createApp', 4);
    assert.ok(
      shown.some((i) => i.location.path === 'docs/adr/0001-use-express.md'),
      JSON.stringify(shown.map((i) => `${i.location.path}: ${i.reason}`)),
    );
  });

  it('leaves a package few files import as evidence', () => {
    const shown = decisions('src/middleware/headers.ts', 'securityHeaders', 3);
    assert.deepEqual(
      shown.map((i) => i.location.path),
      ['docs/adr/0002-use-helmet.md'],
    );
    assert.match(shown[0].reason, /imports helmet/);
  });
});

describe('words that only look telling', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(() => {
    const files: Record<string, string> = {
      'docs/adr/0001-merge-events.md': record(
        1,
        'Merge events into the API',
        'The API now sends each notification itself and writes the outbox; core handlers check the queue.',
      ),
      'src/main/kotlin/app/VisitQueueService.kt':
        'package app\n\nimport io.kotest.core.spec.style.FunSpec\n\nclass VisitQueueService {\n  fun sendCreateVisit(id: String) {\n    println(id)\n  }\n}\n',
    };
    for (let i = 0; i < 24; i++)
      files[`src/lib/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n * ${i};\n}\n`;
    return files;
  });

  it('links no record by a word of a definition the code index does not read (`send`)', () => {
    const shown = decisions('src/main/kotlin/app/VisitQueueService.kt', 'sendCreateVisit', 6);
    assert.deepEqual(
      shown.map((i) => `${i.location.path}: ${i.reason}`),
      [],
    );
  });
});

describe('a standard library import', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(() => {
    const files: Record<string, string> = {
      'docs/adr/0001-store-json.md': record(
        1,
        'Store submission data as JSON',
        'Submissions are kept as JSON documents.',
      ),
      'docs/adr/0002-use-sort-order.md': record(2, 'Sort order of lists', 'Lists are sorted by name, then by date.'),
      'audit/validators.py': 'import json\n\n\ndef validate_amount(raw):\n    return int(raw) > 0\n',
      'pkg/lister/lister.go':
        'package lister\n\nimport "sort"\n\nfunc Names(n []string) []string {\n\tsort.Strings(n)\n\treturn n\n}\n',
    };
    for (let i = 0; i < 24; i++) files[`audit/part${i}.py`] = `def part${i}(n):\n    return n * ${i}\n`;
    return files;
  });

  it('links no record: the language chose it, not the project (`json`, `sort`)', () => {
    for (const [file, symbol] of [
      ['audit/validators.py', 'validate_amount'],
      ['pkg/lister/lister.go', 'Names'],
    ]) {
      const shown = decisions(file, symbol, 4);
      assert.deepEqual(
        shown.map((i) => `${i.location.path}: ${i.reason}`),
        [],
        file,
      );
    }
  });
});
