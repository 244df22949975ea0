import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { extractFacts } from '../../../src/core/index/extract';
import type { FileFacts } from '../../../src/core/index/facts';
import { languageOf, parserFor } from '../../../src/core/index/languages';
import { factsOfSource, fixturesDir } from './fixtureWorkspace';

async function factsOf(rel: string): Promise<FileFacts> {
  const path = rel.replace(/\.fixture$/, '');
  const lang = languageOf(path);
  assert.ok(lang, `${path} has an indexed language`);
  const tree = (await parserFor(lang)).parse(readFileSync(join(fixturesDir, 'ws', rel), 'utf8'));
  assert.ok(tree);
  try {
    return extractFacts(lang, tree);
  } finally {
    tree.delete();
  }
}

const defs = (f: FileFacts) =>
  f.symbols.map(
    (s) =>
      `${s.kind} ${s.container ? s.container + '.' : ''}${s.name} ${s.startLine}-${s.endLine}${s.exported ? ' exported' : ''}${s.deprecated ? ' deprecated' : ''}`,
  );
const calls = (f: FileFacts) =>
  [...f.calls]
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .map((c) => `${c.qualifier ? c.qualifier + '.' : ''}${c.name}@${c.line}:${c.column} in ${c.enclosing ?? '-'}`);

describe('code facts per language', () => {
  it('TypeScript: functions, const arrows, default export, classes, methods, interfaces, JSDoc @deprecated', async () => {
    const f = await factsOf('src/lib/math.ts.fixture');
    assert.deepEqual(defs(f), [
      'function add 2-4 exported',
      'function plus 7-9 exported deprecated',
      'function double 11-11 exported',
      'function main 13-15 exported',
      'class Calculator 17-29 exported',
      'method Calculator.push 20-23 exported',
      'method Calculator.addTo 26-28 exported deprecated',
      'interface Shape 31-33',
      'method Shape.area 32-32',
      'class Ledger 35-43 exported',
      'method Ledger.push 36-38 exported',
      'method Ledger.record 40-42 exported',
    ]);
    assert.equal(f.symbols.find((s) => s.name === 'main')?.exported, 2, 'default export is marked as such');
    assert.deepEqual(calls(f), [
      'add@8:10 in plus',
      'add@11:38 in double',
      'double@14:10 in main',
      'add@21:18 in push',
      'this.push@27:17 in addTo',
      'this.push@41:17 in record',
    ]);
  });

  it('TypeScript: named, renamed, namespace and default imports, re-exports', async () => {
    const app = await factsOf('src/app.ts.fixture');
    assert.deepEqual(
      app.imports.map((i) => [
        i.spec,
        i.names.map((n) => (n.name === n.local ? n.name : `${n.name} as ${n.local}`)).join(', '),
        i.line,
      ]),
      [
        ['./lib/math', 'add as sum, Calculator', 1],
        ['./lib/math', '* as m', 2],
        ['./lib/math.js', 'default as main', 3],
        ['@lib/index', 'plus', 4],
        ['./lib', 'shout', 5],
      ],
    );
    assert.deepEqual(calls(app), [
      'Calculator@8:17 in run',
      'type:Calculator.push@9:5 in run',
      'type:()push.addTo@9:13 in run',
      'sum@10:10 in run',
      'm.add@10:24 in run',
      'main@10:36 in run',
      'plus@10:45 in run',
      'shout@10:58 in run',
    ]);
    const barrel = await factsOf('src/lib/index.ts.fixture');
    assert.deepEqual(
      barrel.imports.map((i) => [i.spec, i.names]),
      [
        [
          './math',
          [
            { name: 'add', local: 'add', reexport: true },
            { name: 'plus', local: 'plus', reexport: true },
          ],
        ],
        ['./strings', [{ name: '*', local: '*', reexport: true }]],
      ],
    );
  });

  it('JavaScript and TSX: require() destructuring is an import, calls inside JSX are found', async () => {
    const js = await factsOf('src/legacy.js.fixture');
    assert.deepEqual(
      js.imports.map((i) => [i.spec, i.names]),
      [['./lib/math', [{ name: 'add', local: 'add' }]]],
    );
    assert.deepEqual(calls(js), ['add@4:10 in legacy'], 'require itself is not a call site');
    const tsx = await factsOf('src/view.tsx.fixture');
    assert.deepEqual(
      defs(tsx),
      ['component View 3-5 exported'],
      'a PascalCase function that renders JSX is a component',
    );
    assert.deepEqual(calls(tsx), ['add@4:16 in View']);
  });

  it('Python: functions, classes, methods, docstring and DeprecationWarning deprecations, relative imports', async () => {
    const core = await factsOf('pkg/core.py');
    assert.deepEqual(defs(core), [
      'function compute 4-5 exported',
      'function helper 8-9 exported',
      'function old_compute 12-14 exported deprecated',
      'function older_compute 17-19 exported deprecated',
      'class Engine 22-27 exported',
      'method Engine.start 23-24 exported',
      'method Engine.step 26-27 exported',
    ]);
    assert.ok(calls(core).includes('type:Engine.step@24:21 in start'), 'self in a method is its class');
    const runner = await factsOf('pkg/sub/runner.py');
    assert.deepEqual(
      runner.imports.map((i) => [i.spec, i.names]),
      [
        [
          '..core',
          [
            { name: 'compute', local: 'c' },
            { name: 'Engine', local: 'Engine' },
          ],
        ],
        ['..', [{ name: 'core', local: 'core' }]],
        ['pkg', [{ name: 'compute', local: 'compute' }]],
      ],
    );
    assert.deepEqual(calls(runner), [
      'Engine@7:9 in go',
      'type:Engine.start@8:7 in go',
      'c@9:12 in go',
      'core.helper@9:24 in go',
      'compute@9:36 in go',
      'core.old_compute@9:54 in go',
    ]);
  });

  it('Python: only a definition that deprecates itself is deprecated, not one that warns about an argument or mentions the word', async () => {
    const src = [
      'import warnings',
      'from typing_extensions import deprecated',
      '',
      '@deprecated("use new_total")',
      'def by_decorator(): pass',
      '',
      '@app.route("/deprecated-page")  # the deprecated page',
      'def by_route(): pass',
      '',
      'def by_warning():',
      '    """Old total."""',
      '    warnings.warn("by_warning is deprecated", PendingDeprecationWarning, stacklevel=2)',
      '    return 1',
      '',
      'def by_own_category():',
      '    warnings.warn("gone in 3.0", SDKDeprecatedWarning)',
      '',
      'def by_sphinx():',
      '    """Totals.',
      '',
      '    .. deprecated:: 3.2',
      '        Use new_total.',
      '    """',
      '',
      'def by_summary():',
      '    """DEPRECATED: session based. Use by_portfolio."""',
      '',
      'def by_sentence():',
      '    """Totals. This function is deprecated and will go."""',
      '',
      'def warns_about_an_argument(days=None):',
      '    """Totals."""',
      '    if days is not None:',
      '        warnings.warn("days is deprecated", DeprecationWarning)',
      '',
      'def __getattr__(name):',
      '    if name == "Old":',
      '        warnings.warn("Old is deprecated", DeprecationWarning)',
      '    raise AttributeError(name)',
      '',
      'class Note:',
      '    """Why a version was',
      '    deprecated, what the migration path is."""',
      '',
      'def mark(version):',
      '    """Mark a version deprecated. Methods may be',
      '    deprecated and removed later; see ``deprecated``."""',
      '',
      'def conint():',
      '    """This function will be **deprecated** in 3.0."""',
      '',
      'class FieldInfo:',
      '    """Holds a field.',
      '',
      '    Attributes:',
      '        alias: The alias name of the field.',
      '        deprecated: A deprecation message, or a bool saying the field is deprecated.',
      '    """',
      '',
      'def by_google_section(x):',
      '    """Totals.',
      '',
      '    Args:',
      '        x: the amount.',
      '',
      '    Deprecated:',
      '        Use new_total.',
      '    """',
    ].join('\n');
    const tree = (await parserFor('python')).parse(src);
    assert.ok(tree);
    try {
      const flagged = extractFacts('python', tree)
        .symbols.filter((s) => s.deprecated)
        .map((s) => s.name);
      assert.deepEqual(flagged, [
        'by_decorator',
        'by_warning',
        'by_own_category',
        'by_sphinx',
        'by_summary',
        'by_sentence',
        'by_google_section',
      ]);
    } finally {
      tree.delete();
    }
  });

  it('Go: functions, methods with receivers, structs, "Deprecated:" comments, package imports', async () => {
    const cart = await factsOf('cart/cart.go');
    assert.deepEqual(defs(cart), [
      'function Total 4-10 exported',
      'function Sum 15-17 exported deprecated',
      'class Cart 19-19 exported',
      'method Cart.Add 21-21 exported',
    ]);
    assert.equal(cart.pkg, 'cart');
    const main = await factsOf('main.go');
    assert.deepEqual(
      main.imports.map((i) => [i.spec, i.names]),
      [
        ['fmt', [{ name: '*', local: 'fmt' }]],
        ['example.com/shop/cart', [{ name: '*', local: 'cart' }]],
      ],
    );
    assert.deepEqual(
      calls(main),
      [
        'type:cart.Cart.Add@11:4 in main',
        'fmt.Println@12:6 in main',
        'cart.Total@12:19 in main',
        'cart.Sum@12:44 in main',
      ],
      'c := &cart.Cart{} gives c its type',
    );
  });

  it('Go: a receiver carries the type its declaration says, or the call whose result it is', async () => {
    const src = [
      'package x', // 1
      'func (c *Command) Run(a, b *Foo, opts ...Opt) (*Result, error) {', // 2
      '\tvar v Bar', // 3
      '\tvar w = &Baz{}', // 4
      '\tx := NewThing()', // 5
      '\ty, z := Qux{}, new(Quux)', // 6
      '\tf := func(q pkg.T) { q.M(); c.N() }', // 7
      '\tc.flags.SetOutput(nil)', // 8
      '\tv.M(); w.M(); x.M(); y.M(); z.M(); a.M(); opts.M()', // 9
      '\tif s, ok := x.(*Sel); ok { s.M() }', // 10
      '\tr, err := c.Route()', // 11
      '\tr.M(); err.Error(); c.Route().M()', // 12
      '\tv := other()', // 13: declared twice, differently: unknown
      '\tv.M()', // 14
      '\treturn nil, nil', // 15
      '}', // 16
      'func NewThing() Thing { return Thing{} }', // 17
    ].join('\n');
    const tree = (await parserFor('go')).parse(src);
    assert.ok(tree);
    try {
      const f = extractFacts('go', tree);
      assert.deepEqual(
        f.symbols.map((s) => `${s.container ? s.container + '.' : ''}${s.name} returns ${s.returns ?? '-'}`),
        ['Command.Run returns Result', 'NewThing returns Thing'],
      );
      const at = (line: number) =>
        calls(f)
          .filter((c) => c.includes(`@${line}:`))
          .map((c) => c.replace(/@\d+:.*/, ''));
      assert.deepEqual(
        at(7),
        ['type:pkg.T.M', 'type:Command.N'],
        'a closure sees its own parameters and the outer receiver',
      );
      assert.deepEqual(
        at(8),
        ['type:@Command.flags.SetOutput'],
        "a field of the receiver: the index knows the struct's fields",
      );
      assert.deepEqual(at(9), [
        'type:Bar.M',
        'type:Baz.M',
        'type:()NewThing.M',
        'type:Qux.M',
        'type:Quux.M',
        'type:Foo.M',
        'opts.M',
      ]);
      assert.deepEqual(at(10), ['type:Sel.M'], 'the comma-ok type assertion types its first name');
      assert.deepEqual(
        at(12),
        ['type:()Route.M', 'err.Error', 'type:Command.Route', 'type:()Route.M'],
        'the first name of a multi-value call gets the first result',
      );
      assert.deepEqual(at(14), ['v.M'], 'a name declared with two types is unknown');
    } finally {
      tree.delete();
    }
  });

  it("TypeScript and JavaScript: a call on a class's field takes the type the class declares for it", async () => {
    const ts = [
      'export class UsersController {', // 1
      '  private cache: Cache<User>;', // 2
      '  readonly #log = new Logger();', // 3
      '  plain;', // 4
      '  constructor(private readonly users: UsersService, protected em: api.EntityManager, other: Other) {', // 5
      '    this.audit = new AuditTrail();', // 6
      '  }', // 7
      '  list(users: Local) {', // 8
      '    this.users.findAll(); this.em.find(); this.cache.get(); this.#log.info(); this.audit.add();', // 9
      '    this.plain.go(); this.other.go(); users.findAll(); this.users.findAll.call(null);', // 10
      '    class Inner { run() { this.users.findAll(); } }', // 11
      '  }', // 12
      '}', // 13
      'function outside() { this.users.findAll(); }', // 14
      'function build(p: Plain, q: Repo<User>) {', // 15
      '  const a = new Alpha(); let b: Beta<T>; const c = make(); const p2 = new Plain(); const p2 = new Other();', // 16
      '  a.run(); b.run(); c.run(); p.run(); q.run(); p2.run();', // 17
      '}', // 18
      'const top = new ns.Top();', // 19
      'top.run(); a.run();', // 20
      'async function load(): Promise<ns.User> { return x; }', // 21
      'async function go() { const u = await load(); u.save(); }', // 22
    ].join('\n');
    const js = [
      'class Client {',
      '  constructor() { this.http = new Http(); }',
      '  get() { return this.http.request(); }',
      '}',
    ].join('\n');
    const f = await factsOfSource('typescript', ts);
    const at = (line: number) =>
      calls(f)
        .filter((c) => c.includes(`@${line}:`))
        .map((c) => c.replace(/@\d+:.*/, ''));
    assert.deepEqual(
      at(9),
      [
        'type:UsersService.findAll',
        'type:api.EntityManager.find',
        'type:Cache.get',
        'type:Logger.info',
        'type:AuditTrail.add',
      ],
      'typed fields, parameter properties, `new` values and constructor assignments',
    );
    assert.deepEqual(
      at(10),
      [
        'type:@UsersController.plain.go',
        'type:@UsersController.other.go',
        'type:Local.findAll',
        'type:@UsersService.findAll.call',
      ],
      'a field this class does not type (a base may), a plain constructor parameter, a parameter of the same name, a field of a typed field',
    );
    assert.deepEqual(at(11), ['type:@Inner.users.findAll'], "an inner class's this is not the outer class");
    assert.deepEqual(
      { ...f.symbols.find((s) => s.name === 'UsersController')?.fields },
      { cache: 'Cache', '#log': 'Logger', users: 'UsersService', em: 'EntityManager', audit: 'AuditTrail' },
      'the field types the index keeps, by last name',
    );
    assert.deepEqual(at(14), ['this.users.findAll'], 'outside the class');
    assert.deepEqual(
      at(17),
      ['type:Alpha.run', 'type:Beta.run', 'type:()make~c.run', 'type:Plain.run', 'type:Repo.run', 'p2.run'],
      'variables typed by `new`, their annotation or the call that made them; one declared twice differently is unknown',
    );
    assert.deepEqual(at(20), ['type:ns.Top.run', 'a.run'], "module variables; a function's own stay inside it");
    assert.equal(f.symbols.find((s) => s.name === 'load')?.returns, 'User', 'a promise returns what it resolves to');
    assert.deepEqual(at(22), ['load', 'type:()load~u.save'], 'an awaited call types its variable');
    const j = await factsOfSource('javascript', js);
    assert.deepEqual(
      calls(j).map((c) => c.replace(/@.*/, '')),
      ['Http', 'type:Http.request'],
    );
  });

  it('TypeScript and JavaScript: a function that declares no return type returns what each of its returns says alike', async () => {
    const source = [
      'class Builder {',
      '  where() { if (this.done) return this; return this; }',
      '  static create() { return this; }',
      '  clone() { return new Builder(); }',
      '  either(flag) { if (flag) return new Builder(); return new Query(); }',
      '  make = () => new Query();',
      '  async load() { const q = new Query(); return q; }',
      '  rows() { return this.items.map((r) => { return new Row(r); }); }',
      '  *each() { yield 1; return new Row(); }',
      '  named(): number { return new Query(); }',
      '  label(): string { return "x"; }',
      '  min(n) { return this.check(n); }',
      '  check(c) { return this.clone(); }',
      '  loop() { return this.loop(); }',
      '  other() { return this.items.get(); }',
      '}',
      'function build() { return new lib.Query(); }',
      'const make = () => new Query();',
      'const echo = (q) => q;',
      'const regex = (n: number): RegExp => new RegExp(String(n));',
      'function cast() { return new Query() as any; }',
      'function named() { return build() as Row; }',
      'function nothing() { return; }',
      '',
    ].join('\n');
    for (const lang of ['typescript', 'javascript'] as const) {
      const js = source
        .replace(/\): (number|string|RegExp)/g, ')')
        .replace(/\(n: number\)/, '(n)')
        .replace(/ as (any|Row)/g, '');
      const f = await factsOfSource(lang, lang === 'javascript' ? js : source);
      const returns = Object.fromEntries(
        f.symbols
          .filter((s) => s.kind !== 'class')
          .map((s) => [`${s.container ? s.container + '.' : ''}${s.name}`, s.returns ?? '-']),
      );
      assert.deepEqual(
        returns,
        {
          'Builder.where': 'Builder',
          'Builder.create': '-', // a static method's this is the class, not an instance
          'Builder.clone': 'Builder',
          'Builder.either': '-',
          'Builder.make': 'Query',
          'Builder.load': 'Query',
          'Builder.rows': '-', // the callback's return is the callback's
          'Builder.each': '-',
          'Builder.named': lang === 'typescript' ? 'number' : 'Query', // a declared type is what counts
          'Builder.label': lang === 'typescript' ? 'string' : '-',
          'Builder.min': 'Builder', // what check() returns, which is what clone() returns
          'Builder.check': 'Builder',
          'Builder.loop': '-',
          'Builder.other': '-',
          build: 'Query',
          make: 'Query',
          echo: '-',
          regex: 'RegExp',
          cast: 'Query',
          named: lang === 'typescript' ? 'Row' : '-',
          nothing: '-',
        },
        lang,
      );
    }
  });

  it('Java: classes, methods, @Deprecated, class imports, qualified calls', async () => {
    const strings = await factsOf('java/src/main/java/com/acme/util/Strings.java');
    assert.deepEqual(defs(strings), [
      'class Strings 3-12 exported',
      'method Strings.trim 4-6 exported',
      'method Strings.strip 8-11 exported deprecated',
    ]);
    assert.equal(strings.pkg, 'com.acme.util');
    const app = await factsOf('java/src/main/java/com/acme/App.java');
    assert.deepEqual(
      app.imports.map((i) => [i.spec, i.names]),
      [['com.acme.util.Strings', [{ name: 'Strings', local: 'Strings' }]]],
    );
    assert.deepEqual(calls(app), ['Strings.trim@7:24 in run', 'Strings.strip@7:42 in run']);
  });

  it('Rust: functions, impl methods, structs, #[deprecated], mod declarations and use trees', async () => {
    const geo = await factsOf('rust/src/geometry.rs');
    assert.deepEqual(defs(geo), [
      'function area 1-3 exported',
      'function old_area 6-8 exported deprecated',
      'class Circle 10-12 exported',
      'method Circle.area 15-17 exported',
    ]);
    const lib = await factsOf('rust/src/lib.rs');
    assert.deepEqual(
      lib.imports.map((i) => i.spec),
      ['self::geometry', 'self::report'],
    );
    assert.deepEqual(calls(lib), ['geometry.area@5:15 in describe']);
    const report = await factsOf('rust/src/report.rs');
    assert.deepEqual(
      report.imports.map((i) => [i.spec, i.names.map((n) => n.name)]),
      [['crate::geometry', ['area', 'old_area']]],
    );
  });

  it('C#: classes, methods, [Obsolete], using directives, constructions', async () => {
    const invoice = await factsOf('cs/Billing/Invoice.cs');
    assert.deepEqual(defs(invoice), [
      'class Invoice 5-11 exported',
      'method Invoice.Total 7-7 exported',
      'method Invoice.Sum 9-10 exported deprecated',
    ]);
    assert.equal(invoice.pkg, 'Acme.Billing');
    const program = await factsOf('cs/App/Program.cs');
    assert.deepEqual(
      program.imports.map((i) => i.spec),
      ['System', 'Acme.Billing'],
    );
    assert.deepEqual(calls(program), [
      'Invoice@10:25 in Main',
      'Console.WriteLine@11:21 in Main',
      'i.Total@11:33 in Main',
      'i.Sum@11:45 in Main',
    ]);
  });
});

describe('code facts and the parsed source', () => {
  it('do not keep the source text of the file alive', async () => {
    // V8 makes a substring of 13 characters or more a view into its parent: a fact holding one would
    // hold the whole file. Facts are kept (import graph, calls held back during a build), files are not.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const parser = await parserFor('typescript');
    const kept: FileFacts[] = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 40; i++) {
      const source = `import { someLongImportedName${i} } from './aModuleWithALongName${i}';\nexport function aRatherLongFunctionName${i}() {\n  return someLongImportedName${i}("${'x'.repeat(256 * 1024)}");\n}\n`;
      const tree = parser.parse(source);
      assert.ok(tree);
      try {
        kept.push(extractFacts('typescript', tree));
      } finally {
        tree.delete();
      }
    }
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1048576;
    assert.equal(kept[39].symbols[0].name, 'aRatherLongFunctionName39');
    assert.equal(kept[39].imports[0].spec, './aModuleWithALongName39');
    // 40 files of 256 KB: 10 MB if the facts held the sources.
    assert.ok(grownMb < 3, `the facts of 40 files hold ${grownMb.toFixed(1)} MB`);
  });
});
