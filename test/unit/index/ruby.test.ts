import { strict as assert } from 'node:assert';
import type { CallerRef, CodeIndex } from '../../../src/core/index/codeIndex';
import { extractFacts } from '../../../src/core/index/extract';
import { languageOf, parserFor } from '../../../src/core/index/languages';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

const show = (refs: CallerRef[]) =>
  refs.map((r) => `${r.path}:${r.line} ${r.confidence}${r.enclosing ? ' in ' + r.enclosing : ''}`);

const FILES: Record<string, string> = {
  'app/models/billing/invoice.rb': [
    'module Billing', // 1
    '  # Adds up amounts.', // 2
    '  # @deprecated Use Invoice#total instead.', // 3
    '  def self.sum(amounts)', // 4
    '    amounts.sum', // 5
    '  end', // 6
    '', // 7
    '  class Invoice < ApplicationRecord', // 8
    '    def total', // 9
    '      subtotal + self.tax + Billing::Tax.rate(subtotal)', // 10
    '    end', // 11
    '', // 12
    '    def self.build(lines)', // 13
    '      new(lines: lines)', // 14
    '    end', // 15
    '', // 16
    '    private', // 17
    '', // 18
    '    def subtotal', // 19
    '      lines.map(&:amount).reduce(0, :+)', // 20
    '    end', // 21
    '', // 22
    '    def tax', // 23
    '      0', // 24
    '    end', // 25
    '  end', // 26
    'end', // 27
    '',
  ].join('\n'),
  'app/models/billing/tax.rb': [
    'class Billing::Tax',
    '  def self.rate(amount)',
    '    amount / 10',
    '  end',
    'end',
    '',
  ].join('\n'),
  'app/services/checkout.rb': [
    "require_relative '../models/billing/invoice'", // 1
    "require 'json'", // 2
    "require 'support/format'", // 3
    '', // 4
    'class Checkout', // 5
    '  def call(lines)', // 6
    '    invoice = Billing::Invoice.build(lines)', // 7
    '    receipt = Billing::Invoice.new(lines: lines)', // 8
    '    format_money(invoice.total + Billing.sum([receipt.total]))', // 9
    '  end', // 10
    'end', // 11
    '',
  ].join('\n'),
  'app/services/report.rb': [
    'class Report', // 1
    '  def call(order)', // 2
    '    order.total', // 3
    '  end', // 4
    'end', // 5
    '',
  ].join('\n'),
  'lib/support/format.rb': ['def format_money(cents)', '  "%.2f" % (cents / 100.0)', 'end', ''].join('\n'),
};

describe('Ruby in the code index', () => {
  let workspace: IndexedWorkspace;
  let index: CodeIndex;

  before(async () => {
    workspace = await indexWorkspace(FILES);
    index = workspace.index;
    assert.equal(index.stats().byLanguage.ruby, 5);
  });

  after(() => workspace.dispose());

  it('extracts modules and classes, nested and `A::B`, methods, `def self.` methods, private sections and @deprecated comments', async () => {
    const tree = (await parserFor('ruby')).parse(FILES['app/models/billing/invoice.rb']);
    assert.ok(tree);
    try {
      const facts = extractFacts('ruby', tree);
      assert.deepEqual(
        facts.symbols.map(
          (s) =>
            `${s.kind} ${s.container ? s.container + '.' : ''}${s.name} ${s.startLine}-${s.endLine}${s.exported ? ' exported' : ''}${s.deprecated ? ' deprecated' : ''}`,
        ),
        [
          'class Billing 1-27 exported',
          'method Billing.sum 4-6 exported deprecated',
          'class Billing.Invoice 8-26 exported',
          'method Invoice.total 9-11 exported',
          'method Invoice.build 13-15 exported',
          'method Invoice.subtotal 19-21',
          'method Invoice.tax 23-25',
        ],
      );
    } finally {
      tree.delete();
    }
    assert.equal(languageOf('lib/tasks/seed.rake'), 'ruby');
  });

  it('tells a bare method call from a local variable or parameter, as Ruby does', async () => {
    const source = [
      'def go(a, b = fallback, *rest, c:, **opts, &blk)', // 1
      '  x = total', // 2
      '  m, n = pair', // 3
      '  items.each { |i| log(i, x, m) }', // 4
      '  for q in list do end', // 5
      '  a + b + c + w', // 6
      'end', // 7
      '',
    ].join('\n');
    const tree = (await parserFor('ruby')).parse(source);
    assert.ok(tree);
    try {
      const calls = extractFacts('ruby', tree).calls.map(
        (c) => `${c.qualifier ? c.qualifier + '.' : ''}${c.name}@${c.line}`,
      );
      assert.deepEqual(calls, ['fallback@1', 'total@2', 'pair@3', 'items.each@4', 'items@4', 'log@4', 'list@5', 'w@6']);
    } finally {
      tree.delete();
    }
    assert.deepEqual(
      index.symbolsIn('app/models/billing/tax.rb').map((s) => `${s.kind} ${s.name} ${s.container ?? ''}`),
      ['class Tax Billing', 'method rate Tax'],
    );
    assert.equal(index.symbolAt('app/models/billing/invoice.rb', 10)?.name, 'total');
  });

  it('resolves require_relative and require from lib/, and leaves gems unresolved', () => {
    assert.deepEqual(index.importsOf('app/services/checkout.rb'), [
      'app/models/billing/invoice.rb',
      'lib/support/format.rb',
    ]);
    assert.deepEqual(index.importersOf('lib/support/format.rb'), ['app/services/checkout.rb']);
  });

  it('finds callers: constructions of a class, class methods by their receiver, instance methods inside the class and on objects where the class is named', () => {
    assert.deepEqual(show(index.callers({ name: 'Invoice', path: 'app/models/billing/invoice.rb' })), [
      'app/services/checkout.rb:8 resolved in call',
    ]);
    assert.deepEqual(show(index.callers({ name: 'build', path: 'app/models/billing/invoice.rb' })), [
      'app/services/checkout.rb:7 resolved in call',
    ]);
    assert.deepEqual(show(index.callers({ name: 'rate', path: 'app/models/billing/tax.rb' })), [
      'app/models/billing/invoice.rb:10 resolved in total',
    ]);
    assert.deepEqual(show(index.callers({ name: 'tax', path: 'app/models/billing/invoice.rb' })), [
      'app/models/billing/invoice.rb:10 resolved in total',
    ]);
    assert.deepEqual(show(index.callers({ name: 'subtotal', path: 'app/models/billing/invoice.rb' })), [
      'app/models/billing/invoice.rb:10 resolved in total',
      'app/models/billing/invoice.rb:10 resolved in total',
    ]);
    // report.rb calls order.total but never names Invoice: not counted.
    assert.deepEqual(show(index.callers({ name: 'total', path: 'app/models/billing/invoice.rb' })), [
      'app/services/checkout.rb:9 likely in call',
      'app/services/checkout.rb:9 likely in call',
    ]);
    assert.deepEqual(show(index.callers({ name: 'format_money', path: 'lib/support/format.rb' })), [
      'app/services/checkout.rb:9 likely in call',
    ]);
  });

  it('warns about a deprecated method a file calls', () => {
    assert.deepEqual(
      index
        .deprecatedUsedIn('app/services/checkout.rb')
        .map((d) => `${d.name}@${d.line} ${d.confidence} -> ${d.definition.path}:${d.definition.line}`),
      ['sum@9 resolved -> app/models/billing/invoice.rb:4'],
    );
  });
});
