import { strict as assert } from 'node:assert';
import type { CallerRef } from '../../../src/core/index/codeIndex';
import { extractFacts } from '../../../src/core/index/extract';
import { parserFor } from '../../../src/core/index/languages';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

// PHP callers through what methods return, doc blocks, inherited properties, `instanceof` checks,
// and `$this` in other classes: a small Symfony-like workspace in a temp folder.

const show = (refs: CallerRef[]) => refs.map((r) => `${r.path}:${r.line} ${r.confidence}`).sort();

const lines = (...text: string[]) => ['<?php', ...text, ''].join('\n');

const FILES: Record<string, string> = {
  'composer.json': '{"autoload": {"psr-4": {"App\\\\": "src/"}}}\n',
  'src/Mail/Mailer.php': lines(
    'namespace App\\Mail;',
    'class Mailer { use Retrying;',
    '    public function send( string $to ): void {}',
    '    public static function make(): static { return new static(); }',
    '}',
  ),
  'src/Mail/Queue.php': lines(
    'namespace App\\Mail;',
    'class Queue {',
    '    public function send( string $to ): void {}',
    '}',
  ),
  'src/Mail/Outbox.php': lines(
    'namespace App\\Mail;',
    'class Outbox extends Mailer {',
    '    public function flush(): void { $this->send( "all" ); }',
    '}',
  ),
  'src/Mail/Retrying.php': lines(
    'namespace App\\Mail;',
    'trait Retrying {',
    '    public function retry(): void { $this->send( "again" ); }',
    '}',
  ),
  // A trait no class of Mailer's family uses.
  'src/Mail/Loud.php': lines(
    'namespace App\\Mail;',
    'trait Loud {',
    '    public function shout(): void { $this->send( "!" ); }',
    '}',
  ),
  // Makes what others call methods on: by declared type, by doc block, or two ways at once.
  'src/Factory.php': lines(
    'namespace App;', // 2
    'use App\\Mail\\Mailer;', // 3
    'use App\\Mail\\Queue;', // 4
    'class Factory {', // 5
    '    public function mailer(): Mailer { return new Mailer(); }', // 6
    '    /** @return Mailer|null */', // 7
    '    public function legacyMailer() { return null; }', // 8
    '    public function queue(): ?Queue { return null; }', // 9
    '}', // 10
  ),
  // Never names Mailer or Queue: only what the calls return says which class a receiver is.
  'src/Controller/SignupController.php': lines(
    'namespace App\\Controller;', // 2
    'class SignupController extends BaseController {', // 3
    '    public function run( $payload ): void {', // 4
    '        $this->getFactory()->mailer()->send( "a" );', // 5
    '        $m = $this->getFactory()->legacyMailer();', // 6
    '        $m->send( "b" );', // 7
    '        $this->getFactory()->queue()->send( "c" );', // 8
    '        $this->mailer->send( "d" );', // 9
    '        $payload->send( "e" );', // 10
    '        $this->getFactory()->unknownLibraryCall()->send( "f" );', // 11
    '    }', // 12
    '}', // 13
  ),
  'src/Controller/BaseController.php': lines(
    'namespace App\\Controller;', // 2
    'use App\\Factory;', // 3
    'use App\\Mail\\Mailer;', // 4
    'abstract class BaseController {', // 5
    '    /** @var Mailer */', // 6
    '    protected $mailer;', // 7
    '    protected function getFactory(): Factory { return new Factory(); }', // 8
    '}', // 9
  ),
  // Checks and doc blocks on variables.
  'src/Dispatch.php': lines(
    'namespace App;', // 2
    'use App\\Mail\\Mailer;', // 3
    'use App\\Mail\\Queue;', // 4
    'class Dispatch {', // 5
    '    /** @param Queue $queue */', // 6
    '    public function run( $queue, object $any, $other ): void {', // 7
    '        $queue->send( "a" );', // 8
    '        if ( $any instanceof Mailer ) { $any->send( "b" ); } else { $any->send( "c" ); }', // 9
    '        $other instanceof Queue && $other->send( "d" );', // 10
    '        /** @var Mailer $found */', // 11
    '        $found = $this->lookup();', // 12
    '        $found->send( "e" );', // 13
    '        (new Queue())->send( "f" );', // 14
    '        Mailer::make()->send( "g" );', // 15
    '        if ( !$other instanceof Mailer ) { return; }', // 16
    '        $other->send( "h" );', // 17
    '    }', // 18
    '    public function lookup() { return null; }', // 19
    '    public function check( $x ): void {', // 20
    '        assert( $x instanceof Queue );', // 21
    '        $x->send( "i" );', // 22
    '        $this->lib()->build()->send( "j" );', // 23
    '    }', // 24
    '}', // 25
  ),
  // Loops over arrays a doc block types.
  'src/Batch.php': lines(
    'namespace App;', // 2
    'use App\\Mail\\Queue;', // 3
    'class Batch {', // 4
    '    /** @return Queue[] */', // 5
    '    public function queues(): array { return []; }', // 6
    '    /** @param array<string, Queue> $byName */', // 7
    '    public function run( array $byName, $more ): void {', // 8
    '        foreach ( $byName as $name => $queue ) { $queue->send( "k" ); }', // 9
    '        foreach ( $this->queues() as $q ) { $q->send( "l" ); }', // 10
    '        foreach ( $more as $item ) { $item->send( "m" ); }', // 11
    '        foreach ( $this->pending as $p ) { $p->send( "n" ); }', // 12
    '    }', // 13
    '    /** @var list<Queue> */', // 14
    '    private array $pending = [];', // 15
    '}', // 16
  ),
  'src/Lookup.php': lines(
    'namespace App;',
    'use App\\Mail\\Mailer;',
    'class Lookup {',
    '    public function locate(): Mailer { return new Mailer(); }',
    '}',
  ),
  // A library's method named like Lookup's gives no Mailer.
  'src/Wiring.php': lines(
    'namespace App;', // 2
    'use App\\Mail\\Mailer;', // 3
    'use Symfony\\Component\\DependencyInjection\\ContainerBuilder;', // 4
    'class Wiring {', // 5
    '    public function run( Lookup $lookup ): void {', // 6
    '        $service = $container->locate( "mailer" );', // 7
    '        $service->send( "o" );', // 8
    '        $lookup->locate()->send( "p" );', // 9
    '        $found = $lookup->locate();', // 10
    '        $found->send( "q" );', // 11
    '        $container = new ContainerBuilder();', // 12
    '    }', // 13
    '}', // 14
  ),
  // Imports Mailer, but `$this->send()` and `Queue::send()` here are another class's.
  'src/Notifier.php': lines(
    'namespace App;', // 2
    'use App\\Mail\\Mailer;', // 3
    'use App\\Mail\\Queue;', // 4
    'class Notifier {', // 5
    '    public function send( string $to ): void {}', // 6
    '    public function notify( Mailer $mailer ): void { $this->send( "x" ); $mailer->send( "y" ); Queue::send( "z" ); }', // 7
    '}', // 8
  ),
};

describe('PHP callers through results, doc blocks, inherited properties and checks', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace(FILES);
  });

  after(() => ws.dispose());

  const callers = (path: string) =>
    show(ws.index.callers({ name: 'send', path, line: 4 })).filter((c) => !c.endsWith(' name'));

  it('records what methods declare they return (their type, their doc block, the class for static) and what loops over arrays give', async () => {
    const tree = (await parserFor('php')).parse(FILES['src/Factory.php']);
    assert.ok(tree);
    try {
      assert.deepEqual(
        extractFacts('php', tree).symbols.map((s) => `${s.name}:${s.returns ?? ''}`),
        ['Factory:', 'mailer:Mailer', 'legacyMailer:Mailer', 'queue:Queue'],
      );
    } finally {
      tree.delete();
    }
    const batch = (await parserFor('php')).parse(FILES['src/Batch.php']);
    assert.ok(batch);
    try {
      const facts = extractFacts('php', batch);
      assert.equal(
        facts.symbols.find((s) => s.name === 'queues')?.returns,
        'Queue[]',
        "array, and the doc block's Queue[]",
      );
      assert.deepEqual(
        facts.calls.filter((c) => c.name === 'send').map((c) => c.qualifier),
        ['type:Queue', 'type:()queues[]', 'item', 'type:Queue'],
      );
    } finally {
      batch.delete();
    }
  });

  it("finds Mailer's send through call results, doc blocks, a base's property and checks, and not where the receiver is another class", () => {
    assert.deepEqual(callers('src/Mail/Mailer.php'), [
      'src/Controller/SignupController.php:5 resolved',
      'src/Controller/SignupController.php:7 resolved',
      'src/Controller/SignupController.php:9 resolved',
      'src/Dispatch.php:13 resolved',
      'src/Dispatch.php:15 resolved',
      'src/Dispatch.php:17 resolved',
      // The else branch knows only `object`: perhaps.
      'src/Dispatch.php:9 likely',
      'src/Dispatch.php:9 resolved',
      // `$this->send()` in a subclass, and in a trait a class may use: perhaps this method.
      'src/Mail/Outbox.php:4 likely',
      'src/Mail/Retrying.php:4 likely',
      'src/Notifier.php:7 resolved',
      'src/Wiring.php:11 resolved',
      'src/Wiring.php:9 resolved',
    ]);
  });

  it("finds Queue's send through a nullable result, @param, && and assert checks, a parenthesized new, and loops over arrays of it", () => {
    assert.deepEqual(callers('src/Mail/Queue.php'), [
      'src/Batch.php:10 resolved',
      'src/Batch.php:11 likely',
      'src/Batch.php:12 resolved',
      'src/Batch.php:9 resolved',
      'src/Controller/SignupController.php:8 resolved',
      'src/Dispatch.php:10 resolved',
      'src/Dispatch.php:14 resolved',
      'src/Dispatch.php:22 resolved',
      'src/Dispatch.php:8 resolved',
      'src/Dispatch.php:9 likely',
      // `Queue::send()` names the class itself.
      'src/Notifier.php:7 resolved',
    ]);
  });

  it("leaves out untyped receivers in files that never name the class, a library call's result (also one named like a workspace method), and a trait of no class of the family", () => {
    const all = show(ws.index.callers({ name: 'send', path: 'src/Mail/Mailer.php', line: 4 }));
    for (const at of [
      'src/Controller/SignupController.php:10 ',
      'src/Controller/SignupController.php:11 ',
      'src/Dispatch.php:23 ',
      'src/Mail/Loud.php:4 ',
      'src/Wiring.php:8 ',
    ]) {
      assert.ok(!all.some((c) => c.startsWith(at)), `${at}in\n${all.join('\n')}`);
    }
  });

  it("counts Notifier's own $this->send(), never Mailer's or Queue's for it", () => {
    // Dispatch's `$any` in the else branch and Batch's `$item` are any object: perhaps.
    assert.deepEqual(show(ws.index.callers({ name: 'send', path: 'src/Notifier.php', line: 6 })), [
      'src/Batch.php:11 likely',
      'src/Dispatch.php:9 likely',
      'src/Notifier.php:7 resolved',
    ]);
  });
});
