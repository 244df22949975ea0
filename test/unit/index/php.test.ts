import { strict as assert } from 'node:assert';
import type { CallerRef, CodeIndex } from '../../../src/core/index/codeIndex';
import { extractFacts } from '../../../src/core/index/extract';
import { parserFor } from '../../../src/core/index/languages';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

const show = (refs: CallerRef[]) =>
  refs.map((r) => `${r.path}:${r.line} ${r.confidence}${r.enclosing ? ' in ' + r.enclosing : ''}`);

const FILES: Record<string, string> = {
  'composer.json': '{"autoload": {"psr-4": {"Acme\\\\Shop\\\\": "src/"}}}\n',
  'src/Billing/Invoice.php': [
    '<?php', // 1
    'namespace Acme\\Shop\\Billing;', // 2
    '', // 3
    'final class Invoice', // 4
    '{', // 5
    '    public function total(): int', // 6
    '    {', // 7
    '        return $this->subtotal() + self::tax() + Tax::rate(1);', // 8
    '    }', // 9
    '', // 10
    '    /**', // 11
    '     * @deprecated Use total()', // 12
    '     */', // 13
    '    public function sum(): int', // 14
    '    {', // 15
    '        return $this->total();', // 16
    '    }', // 17
    '', // 18
    '    public static function build(array $lines): self', // 19
    '    {', // 20
    '        return new static();', // 21
    '    }', // 22
    '', // 23
    '    private function subtotal(): int', // 24
    '    {', // 25
    '        return 0;', // 26
    '    }', // 27
    '', // 28
    '    private static function tax(): int', // 29
    '    {', // 30
    '        return 0;', // 31
    '    }', // 32
    '}', // 33
    '',
  ].join('\n'),
  'src/Billing/Tax.php': [
    '<?php',
    'namespace Acme\\Shop\\Billing;',
    '',
    'interface Rated { public function rate(int $n): int; }',
    '',
    'class Tax',
    '{',
    '    public static function rate(int $n): int { return $n; }',
    '}',
    '',
  ].join('\n'),
  'src/Checkout/CheckoutController.php': [
    '<?php', // 1
    'namespace Acme\\Shop\\Checkout;', // 2
    '', // 3
    'use Acme\\Shop\\Billing\\Invoice;', // 4
    'use Acme\\Shop\\Billing\\{Tax as Taxes};', // 5
    'use Symfony\\Component\\HttpFoundation\\Response;', // 6
    '', // 7
    'class CheckoutController', // 8
    '{', // 9
    '    public function index(Invoice $invoice): Response', // 10
    '    {', // 11
    '        $built = Invoice::build([]);', // 12
    '        $fresh = new Invoice();', // 13
    '        return new Response((string) ($invoice->total() + $built?->sum() + Taxes::rate(2) + format_money(1)));', // 14
    '    }', // 15
    '}', // 16
    '',
  ].join('\n'),
  'src/Report/Report.php': [
    '<?php',
    'namespace Acme\\Shop\\Report;',
    '',
    'class Report',
    '{',
    '    public function run($order) { return $order->total(); }',
    '}',
    '',
  ].join('\n'),
  'src/helpers.php': [
    '<?php',
    'function format_money(int $cents): string',
    '{',
    '    return number_format($cents / 100, 2);',
    '}',
    '',
  ].join('\n'),
};

describe('PHP in the code index', () => {
  let workspace: IndexedWorkspace;
  let index: CodeIndex;

  before(async () => {
    workspace = await indexWorkspace(FILES);
    index = workspace.index;
    assert.equal(index.stats().byLanguage.php, 5);
  });

  after(() => workspace.dispose());

  it('extracts classes, interfaces, methods with their visibility, functions, @deprecated doc blocks, the namespace and use imports', async () => {
    const tree = (await parserFor('php')).parse(FILES['src/Billing/Invoice.php']);
    assert.ok(tree);
    try {
      const facts = extractFacts('php', tree);
      assert.deepEqual(
        facts.symbols.map(
          (s) =>
            `${s.kind} ${s.container ? s.container + '.' : ''}${s.name} ${s.startLine}-${s.endLine}${s.exported ? ' exported' : ''}${s.deprecated ? ' deprecated' : ''}`,
        ),
        [
          'class Invoice 4-33 exported',
          'method Invoice.total 6-9 exported',
          'method Invoice.sum 14-17 exported deprecated',
          'method Invoice.build 19-22 exported',
          'method Invoice.subtotal 24-27',
          'method Invoice.tax 29-32',
        ],
      );
      assert.equal(facts.pkg, 'Acme\\Shop\\Billing');
      assert.deepEqual(
        facts.calls.map((c) => `${c.qualifier ? c.qualifier + '.' : ''}${c.name}@${c.line}`),
        ['this.subtotal@8', 'self.tax@8', 'type:Tax.rate@8', 'this.total@16'],
      );
    } finally {
      tree.delete();
    }
    assert.deepEqual(
      index.symbolsIn('src/Billing/Tax.php').map((s) => `${s.kind} ${s.name}`),
      ['interface Rated', 'method rate', 'class Tax', 'method rate'],
    );
    assert.equal(index.symbolAt('src/Billing/Invoice.php', 8)?.name, 'total');
  });

  it('resolves use imports by the tail of the namespace that one file ends with, grouped and aliased; vendor classes stay unresolved', () => {
    assert.deepEqual(index.importsOf('src/Checkout/CheckoutController.php'), [
      'src/Billing/Invoice.php',
      'src/Billing/Tax.php',
    ]);
    assert.deepEqual(index.importersOf('src/Billing/Invoice.php'), ['src/Checkout/CheckoutController.php']);
  });

  it('finds callers: constructions, static calls through an import or an alias, $this and self:: inside the class, and methods on objects where the class is in scope', () => {
    assert.deepEqual(show(index.callers({ name: 'Invoice', path: 'src/Billing/Invoice.php' })), [
      'src/Checkout/CheckoutController.php:13 resolved in index',
    ]);
    assert.deepEqual(show(index.callers({ name: 'build', path: 'src/Billing/Invoice.php' })), [
      'src/Checkout/CheckoutController.php:12 resolved in index',
    ]);
    assert.deepEqual(show(index.callers({ name: 'subtotal', path: 'src/Billing/Invoice.php' })), [
      'src/Billing/Invoice.php:8 resolved in total',
    ]);
    assert.deepEqual(show(index.callers({ name: 'tax', path: 'src/Billing/Invoice.php' })), [
      'src/Billing/Invoice.php:8 resolved in total',
    ]);
    // Same namespace (folder) without an import, and through `use … {Tax as Taxes}`.
    assert.deepEqual(show(index.callers({ name: 'rate', path: 'src/Billing/Tax.php', line: 8 })), [
      'src/Billing/Invoice.php:8 resolved in total',
      'src/Checkout/CheckoutController.php:14 resolved in index',
    ]);
    // Report.php calls $order->total() but never names Invoice: not counted.
    assert.deepEqual(show(index.callers({ name: 'total', path: 'src/Billing/Invoice.php' })), [
      'src/Billing/Invoice.php:16 resolved in sum',
      'src/Checkout/CheckoutController.php:14 resolved in index',
    ]);
    assert.deepEqual(show(index.callers({ name: 'format_money', path: 'src/helpers.php' })), [
      'src/Checkout/CheckoutController.php:14 name in index',
    ]);
  });

  it('warns about a deprecated method a file calls', () => {
    assert.deepEqual(
      index
        .deprecatedUsedIn('src/Checkout/CheckoutController.php')
        .map((d) => `${d.name}@${d.line} ${d.confidence} -> ${d.definition.path}:${d.definition.line}`),
      ['sum@14 resolved -> src/Billing/Invoice.php:14'],
    );
  });
});

describe('PHP callers through interfaces and base classes', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'composer.json': '{"autoload": {"psr-4": {"Acme\\\\Log\\\\": "src/"}}}\n',
      'src/Logging/BucketLogger.php': [
        '<?php',
        'namespace Acme\\Log\\Logging;',
        'interface BucketLogger {',
        '  public function writeEvent( string $event ): void;',
        '}',
        '',
      ].join('\n'),
      'src/Logging/JsonBucketLogger.php': [
        '<?php',
        'namespace Acme\\Log\\Logging;',
        'class JsonBucketLogger implements BucketLogger {',
        '  public function writeEvent( string $event ): void {}',
        '}',
        '',
      ].join('\n'),
      'src/Logging/DbBucketLogger.php': [
        '<?php',
        'namespace Acme\\Log\\Logging;',
        'class DbBucketLogger implements BucketLogger {',
        '  public function writeEvent( string $event ): void {}',
        '}',
        '',
      ].join('\n'),
      // Names only the interface: its call may reach any implementation.
      'src/UseCases/Checkout.php': [
        '<?php', // 1
        'namespace Acme\\Log\\UseCases;', // 2
        'use Acme\\Log\\Logging\\BucketLogger;', // 3
        'class Checkout {', // 4
        '  public function __construct( private BucketLogger $logger ) {}', // 5
        "  public function run(): void { $this->logger->writeEvent( 'checkout' ); }", // 6
        '}', // 7
        '',
      ].join('\n'),
      // Names only a sibling implementation: its calls are that class's.
      'tests/DbLoggerTest.php': [
        '<?php',
        'use Acme\\Log\\Logging\\DbBucketLogger;',
        'class DbLoggerTest {',
        "  public function testWrite(): void { $logger = new DbBucketLogger(); $logger->writeEvent( 'x' ); }",
        '}',
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  it('counts a call through the interface for each implementation, and a call on a sibling implementation for that one only', () => {
    const callers = (path: string) =>
      show(ws.index.callers({ name: 'writeEvent', path, line: 4 })).filter((c) => !c.includes(' name'));
    assert.deepEqual(callers('src/Logging/JsonBucketLogger.php'), ['src/UseCases/Checkout.php:6 likely in run']);
    assert.deepEqual(callers('src/Logging/DbBucketLogger.php').sort(), [
      'src/UseCases/Checkout.php:6 likely in run',
      'tests/DbLoggerTest.php:4 resolved in testWrite',
    ]);
  });
});

describe('PHP callers through what the code says of types', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'composer.json': '{"autoload": {"psr-4": {"App\\\\": "src/"}}}\n',
      'src/Mail/Mailer.php': [
        '<?php',
        'namespace App\\Mail;',
        'class Mailer {',
        '    public function send( string $to ): void {}',
        '}',
        '',
      ].join('\n'),
      'src/Mail/Queue.php': [
        '<?php',
        'namespace App\\Mail;',
        'class Queue {',
        '    public function send( string $to ): void {}',
        '}',
        '',
      ].join('\n'),
      'src/Signup.php': [
        '<?php', // 1
        'namespace App;', // 2
        'use App\\Mail\\Mailer;', // 3
        'use App\\Mail\\Queue;', // 4
        'class Signup {', // 5
        '    private ?Mailer $mailer;', // 6
        '    private $queue;', // 7
        '    public function __construct( Mailer $mailer, Queue $queue, private readonly Queue $later ) {', // 8
        '        $this->mailer = $mailer;', // 9
        '        $this->queue = $queue;', // 10
        '    }', // 11
        '    public function run( Mailer|null $m, Queue $q, $anything ): void {', // 12
        '        $this->mailer->send( "a" );', // 13
        '        $this->queue->send( "b" );', // 14
        '        $this->later?->send( "c" );', // 15
        '        $m->send( "d" );', // 16
        '        $q->send( "e" );', // 17
        '        $anything->send( "f" );', // 18
        '        $made = new Mailer();', // 19
        '        $made->send( "g" );', // 20
        '        $either = new Mailer();', // 21
        '        $either = new Queue();', // 22
        '        $either->send( "h" );', // 23
        '        $each = static function ( Queue $inner ) use ( $m ): void {', // 24
        '            $inner->send( "i" );', // 25
        '            $m->send( "j" );', // 26
        '        };', // 27
        '        $arrow = fn ( Mailer $a ) => $a->send( "k" ) && $q->send( "l" );', // 28
        '    }', // 29
        '}', // 30
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  it('types receivers by parameter and property types, promoted and constructor-assigned properties, new, and closure parameters; a name bound two ways stays unknown', () => {
    const callers = (path: string) =>
      show(ws.index.callers({ name: 'send', path, line: 4 }))
        .filter((c) => !c.includes(' name'))
        .map((c) => c.replace(/ in .*/, ''))
        .sort();
    assert.deepEqual(callers('src/Mail/Mailer.php'), [
      'src/Signup.php:13 resolved',
      'src/Signup.php:16 resolved',
      'src/Signup.php:18 likely',
      'src/Signup.php:20 resolved',
      'src/Signup.php:23 likely',
      'src/Signup.php:26 resolved',
      'src/Signup.php:28 resolved',
    ]);
    assert.deepEqual(callers('src/Mail/Queue.php'), [
      'src/Signup.php:14 resolved',
      'src/Signup.php:15 resolved',
      'src/Signup.php:17 resolved',
      'src/Signup.php:18 likely',
      'src/Signup.php:23 likely',
      'src/Signup.php:25 resolved',
      'src/Signup.php:28 resolved',
    ]);
  });
});
