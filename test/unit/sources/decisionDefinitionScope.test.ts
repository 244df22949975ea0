import { strict as assert } from 'node:assert';
import { unusedImports } from '../../../src/core/sources/decisions/importUse';
import { acceptedRecord, decisionWorkspace } from './decisionWorkspace';

const record = acceptedRecord;

/**
 * Evidence that belongs to one definition of a long file, not to its neighbours: a package only one
 * model uses, and a reference comment inside one function.
 */
function modelsFile(): Record<string, string> {
  const files: Record<string, string> = {
    'docs/decisions/0001-multiple-emails.md': record(
      1,
      'Store several e-mail addresses with multi_email_field',
      'Learners may give several addresses: the MultiEmailField of multi_email_field keeps them.',
    ),
    'docs/decisions/0002-invoice-numbers.md': record(
      2,
      'Number invoices per year',
      'Invoice numbers restart each year, so that the tax office reads them in order.',
    ),
    'app/models.py': [
      'from django.db import models',
      'from multi_email_field.fields import (',
      '    MultiEmailField,',
      ')',
      '',
      '',
      'class Learner(models.Model):',
      '    emails = MultiEmailField()',
      '',
      '',
      'class Invoice(models.Model):',
      '    number = models.IntegerField()',
      '',
      '    def next_number(self):',
      '        # Restarts each year, ADR 0002',
      '        return self.number + 1',
      '',
      '',
      'class Course(models.Model):',
      '    title = models.CharField(max_length=80)',
      '',
      '    def display(self):',
      '        return self.title',
      '',
    ].join('\n'),
  };
  for (let i = 0; i < 30; i++)
    files[`app/part${i}.py`] = `from django.db import models\n\n\ndef part${i}(n):\n    return n + ${i}\n`;
  return files;
}

describe('evidence of one definition in a file of many', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(modelsFile, 1);
  const shown = (symbol: string, line: number) =>
    decisions('app/models.py', symbol, line).map((i) => `${i.location.path}: ${i.reason}`);

  it('links a record about a package to the definition that uses it', () => {
    assert.deepEqual(
      shown('Learner', 7).filter((s) => s.includes('0001')),
      ['docs/decisions/0001-multiple-emails.md: this file imports multi_email_field.fields, which ADR 0001 is about'],
    );
  });

  it('does not link it to a definition beside it that never uses the package', () => {
    assert.deepEqual(
      shown('Course', 19).filter((s) => s.includes('0001')),
      [],
    );
  });

  it('links a reference comment to the function it sits in', () => {
    assert.ok(
      shown('next_number', 14).some(
        (s) => s === 'docs/decisions/0002-invoice-numbers.md: line 15 of app/models.py refers to ADR 0002',
      ),
      JSON.stringify(shown('next_number', 14)),
    );
  });

  it('does not link a reference comment inside another definition', () => {
    assert.deepEqual(
      shown('display', 22).filter((s) => s.includes('0002')),
      [],
    );
  });
});

describe('what a definition imports, read from the text', () => {
  const ts = [
    "import helmet from 'helmet';",
    'import {',
    '  parse,',
    '  format as formatDate,',
    "} from 'date-fns';",
    "import * as z from 'zod';",
    "import 'reflect-metadata';",
    "jest.mock('date-fns');",
    'export function secure() { return helmet(); }',
    'export function when(d: Date) { return formatDate(d) + z.string(); }',
    'export function today() { return parse(""); }',
  ].join('\n');
  const specs = ['helmet', 'date-fns', 'zod', 'reflect-metadata'];

  it('knows the names JavaScript imports bind, across lines and aliases', () => {
    assert.deepEqual([...unusedImports(ts, specs, { start: 9, end: 9 })], ['date-fns', 'zod']);
    assert.deepEqual([...unusedImports(ts, specs, { start: 10, end: 10 })], ['helmet']);
    assert.deepEqual([...unusedImports(ts, specs, { start: 11, end: 11 })], ['helmet', 'zod']);
  });

  it('knows Go aliases and package names, Java classes and annotations above a method', () => {
    const go = [
      'package x',
      'import (',
      '\tyaml "gopkg.in/yaml.v3"',
      '\t"github.com/redis/go-redis/v9"',
      ')',
      'func A() { yaml.Marshal(1) }',
      'func B() { redis.NewClient() }',
    ].join('\n');
    assert.deepEqual(
      [...unusedImports(go, ['gopkg.in/yaml.v3', 'github.com/redis/go-redis/v9'], { start: 6, end: 6 })],
      ['github.com/redis/go-redis/v9'],
    );
    const java = [
      'package a;',
      'import org.springframework.web.bind.annotation.ResponseStatus;',
      'import com.x.Foo;',
      'class C {',
      '  @ResponseStatus(CREATED)',
      '  void create() {}',
      '  void other() { new Foo(); }',
      '}',
    ].join('\n');
    assert.deepEqual(
      [
        ...unusedImports(java, ['org.springframework.web.bind.annotation.ResponseStatus', 'com.x.Foo'], {
          start: 6,
          end: 6,
        }),
      ],
      ['com.x.Foo'],
    );
  });

  it('counts a package used through a helper of the file or a top-level variable', () => {
    const py = [
      'from cirrus_sdk import CirrusClient',
      'import requests',
      '',
      'sdk = CirrusClient()',
      '',
      'def make_session():',
      '    return requests.Session()',
      '',
      'def lifespan():',
      '    return sdk.start()',
      '',
      'def fetch(self):',
      '    return self.make_session().get("x")',
      '',
      'def other():',
      '    return 1',
    ].join('\n');
    const definitions = [
      { name: 'make_session', startLine: 6, endLine: 7 },
      { name: 'lifespan', startLine: 9, endLine: 10 },
      { name: 'fetch', startLine: 12, endLine: 13 },
      { name: 'other', startLine: 15, endLine: 16 },
    ];
    const unused = (start: number) => [
      ...unusedImports(py, ['cirrus_sdk', 'requests'], { start, end: start + 1 }, definitions),
    ];
    assert.deepEqual(unused(9), ['requests']);
    assert.deepEqual(unused(12), ['cirrus_sdk']);
    assert.deepEqual(unused(15), ['cirrus_sdk', 'requests']);
  });

  it('counts as used an import whose names it cannot tell or never finds', () => {
    const py = ['from a.b import *', 'import c.d', 'def f():', '    return 1'].join('\n');
    assert.deepEqual([...unusedImports(py, ['a.b', 'c.d', 'e'], { start: 3, end: 4 })], []);
    const ruby = ["require 'sidekiq'", 'def perform', '  1', 'end'].join('\n');
    assert.deepEqual([...unusedImports(ruby, ['sidekiq'], { start: 2, end: 4 })], []);
  });

  it('reads a minified line of any length in one pass, without taking it for an import', () => {
    const long = "import x from 'y'; " + 'a'.repeat(100_000);
    assert.deepEqual([...unusedImports(long + '\nfunction f() { return 1 }', ['y'], { start: 2, end: 2 })], []);
  });
});
