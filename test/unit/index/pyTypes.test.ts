import { strict as assert } from 'node:assert';
import { callersIn, factsOfSource, indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

describe('Python callers through what the code says of types', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'app/__init__.py': '',
      'app/sessions.py': [
        'class SessionInterface:', // 1
        '    def open_session(self, app):', // 2
        '        return None', // 3
        '', // 4
        'class CookieSessions(SessionInterface):', // 5
        '    def open_session(self, app):', // 6
        '        return {}', // 7
        '', // 8
        'class SignedSessions(CookieSessions):', // 9
        '    def open_session(self, app):', // 10
        '        return super().open_session(app)', // 11
        '',
      ].join('\n'),
      'app/core.py': [
        'from .sessions import SessionInterface, CookieSessions', // 1
        '', // 2
        'class App:', // 3
        '    session_interface: SessionInterface = CookieSessions()', // 4
        '    def make_response(self) -> "Response":', // 5
        '        return Response()', // 6
        '', // 7
        'class Response:', // 8
        '    def close(self) -> None:', // 9
        '        pass', // 10
        '',
      ].join('\n'),
      // Names neither SessionInterface nor Response: the receivers are a field's field and a method's result.
      'app/ctx.py': [
        'from .core import App', // 1
        '', // 2
        'class Context:', // 3
        '    def __init__(self, app: App):', // 4
        '        self.app = app', // 5
        '', // 6
        '    def push(self):', // 7
        '        si = self.app.session_interface', // 8
        '        si.open_session(self.app)', // 9
        '',
      ].join('\n'),
      'app/other.py': [
        'from .core import Response', // 1
        '', // 2
        'class Stream:', // 3
        '    def close(self):', // 4
        '        pass', // 5
        '', // 6
        '    def finish(self):', // 7
        '        self.close()', // 8
        '', // 9
        'def done(r: Response, s: Stream, raw):', // 10
        '    r.close()', // 11
        '    s.close()', // 12
        '    raw.close()', // 13
        '    with Stream() as st:', // 14
        '        st.close()', // 15
        '', // 16
        'def factory() -> Stream:', // 17
        '    return Stream()', // 18
        '', // 19
        'def made(factory):', // 20
        '    s = factory()', // 21
        '    s.close()', // 22
        '    t = Response()', // 23
        '    t.close()', // 24
        '', // 25
        'def via(app: "App"):', // 26
        '    app.make_response().close()', // 27
        '',
      ].join('\n'),
      // Calls whose receiver's class is written but says nothing against the method.
      'app/models.py': [
        'from typing import Protocol, TypeAlias', // 1
        'from .tv import ModelT', // 2
        '', // 3
        'class Model:', // 4
        '    def save(self):', // 5
        '        pass', // 6
        '', // 7
        'class SaveMixin:', // 8
        '    def persist(self):', // 9
        '        self.save()', // 10
        '', // 11
        'class Thing(SaveMixin, Model):', // 12
        '    pass', // 13
        '', // 14
        'class Saver(Protocol):', // 15
        '    def save(self): ...', // 16
        '', // 17
        'Alias: TypeAlias = Model', // 18
        '', // 19
        'def use(a: Alias, t: ModelT, p: Saver, d: dict, Kind):', // 20
        '    a.save(); t.save(); p.save(); d.save()', // 21
        '    k = Kind(); k.save()', // 22
        '',
      ].join('\n'),
      'app/tv.py': ['from typing import TypeVar', 'ModelT = TypeVar("ModelT")', ''].join('\n'),
      // What calls return: a method of the receiver's own class, a field holding one's result.
      'app/web.py': [
        'class Headers:', // 1
        '    def update(self, other): pass', // 2
        'class Request:', // 3
        '    headers: Headers', // 4
        'class Transport:', // 5
        '    def close(self): pass', // 6
        'class Session:', // 7
        '    def __enter__(self) -> "Session":', // 8
        '        return self', // 9
        '    def send_text(self, text): pass', // 10
        'class Client:', // 11
        '    def __init__(self):', // 12
        '        self._transport = self._init_transport()', // 13
        '    def _init_transport(self) -> Transport:', // 14
        '        return Transport()', // 15
        '    def close(self):', // 16
        '        self._transport.close()', // 17
        '    def build_request(self) -> Request:', // 18
        '        return Request()', // 19
        '    def websocket_connect(self) -> Session:', // 20
        '        return Session()', // 21
        '    async def send(self) -> Request:', // 22
        '        return Request()', // 23
        '',
      ].join('\n'),
      // Another _init_transport, of another class: the name alone says nothing.
      'app/aweb.py': [
        'class AsyncTransport:',
        '    def close(self): pass',
        'class AsyncClient:',
        '    def _init_transport(self) -> AsyncTransport:',
        '        return AsyncTransport()',
        '',
      ].join('\n'),
      // Values of a library's classes, as the declaring file writes them.
      'app/flows.py': [
        'import typing', // 1
        'import httpcore', // 2
        'class Auth:', // 3
        '    def flow(self) -> typing.Generator:', // 4
        '        yield None', // 5
        'class Pool:', // 6
        '    def close(self): pass', // 7
        'class Transport2:', // 8
        '    def __init__(self):', // 9
        '        self._pool = httpcore.ConnectionPool()', // 10
        '    def shut(self, auth: Auth):', // 11
        '        self._pool.close()', // 12
        '        auth.flow().close()', // 13
        '',
      ].join('\n'),
      'app/shut.py': [
        'from app.flows import Auth, Pool, Transport2',
        'def shut(t: Transport2, auth: Auth):',
        '    t._pool.close()',
        '    auth.flow().close()',
        '',
      ].join('\n'),
      // A submodule's function called through its package, and a method of the same name.
      'app/json.py': [
        'def loads(s):',
        '    return s',
        'class Provider:',
        '    def loads(self, s):',
        '        return s',
        '',
      ].join('\n'),
      'app/use_json.py': [
        'import app',
        'from app.json import Provider',
        'def f():',
        '    app.json.loads("{}")',
        '    app.provider.loads("{}")',
        '',
      ].join('\n'),
      'tests/types.py': [
        'from typing import Protocol',
        'from app.web import Client',
        'class ClientFactory(Protocol):',
        '    def __call__(self, app) -> Client: ...',
        '',
      ].join('\n'),
      // Names none of Session, Request, Headers: each receiver is what a call returns.
      'tests/test_ws.py': [
        'from tests.types import ClientFactory', // 1
        '', // 2
        'def test_ws(client_factory: ClientFactory):', // 3
        '    client = client_factory(None)', // 4
        '    with client.websocket_connect() as ws:', // 5
        '        ws.send_text("hi")', // 6
        '    request = client.build_request()', // 7
        '    request.headers.update({})', // 8
        '', // 9
        'async def test_send(client_factory: ClientFactory):', // 10
        '    response = await client_factory(None).send()', // 11
        '    response.headers.update({})', // 12
        '',
      ].join('\n'),
      // A test's own class named like the workspace's Context: a function's, not a second Context.
      'tests/test_ctx.py': ['def test_local():', '    class Context:', '        pass', ''].join('\n'),
    });
  });

  after(() => ws.dispose());

  const callers = (path: string, name: string, line: number) => callersIn(ws, path, name, line);

  it("follows a parameter's annotation into the fields a class gives itself, a class's annotated fields, and super() to the one base", () => {
    assert.deepEqual(callers('app/sessions.py', 'open_session', 2), [
      'app/ctx.py:9 resolved',
      'app/sessions.py:11 likely',
    ]);
    assert.deepEqual(
      callers('app/sessions.py', 'open_session', 6),
      ['app/ctx.py:9 likely', 'app/sessions.py:11 resolved'],
      'through the base that declares it; super() is the one base',
    );
    assert.deepEqual(
      callers('app/sessions.py', 'open_session', 10),
      ['app/ctx.py:9 likely', 'app/sessions.py:11 likely'],
      'only through the bases that declare it',
    );
  });

  it("tells calls on a known class from calls on another; an unknown receiver's close() is a file's as likely as theirs", () => {
    assert.deepEqual(
      callers('app/core.py', 'close', 9),
      ['app/other.py:11 resolved', 'app/other.py:24 resolved', 'app/other.py:27 resolved'],
      "a parameter's factory() is no module function; make_response() says it returns a Response",
    );
    assert.deepEqual(callers('app/other.py', 'close', 4), [
      'app/other.py:12 resolved',
      'app/other.py:15 resolved',
      'app/other.py:8 resolved',
    ]);
  });

  it("keeps as likely a call whose receiver's class has no such method of its own: a mixin, a Protocol, an alias, a type variable, a class held in a name", () => {
    assert.deepEqual(
      callers('app/models.py', 'save', 5),
      [
        'app/models.py:10 likely', // self.save() in a mixin: the class mixed in provides it
        'app/models.py:21 likely', // an alias
        'app/models.py:21 likely', // a type variable from another module
        'app/models.py:21 likely', // a Protocol, matched by shape
        'app/models.py:22 likely', // an instance of the class a parameter holds
      ],
      'and never a dict',
    );
  });

  it("follows what calls return: a method of the receiver's class, a callable's __call__, with … as through __enter__, await, a field holding a result, in files that never name the class, and a library's class as its module writes it", () => {
    assert.deepEqual(
      callers('app/web.py', 'send_text', 10),
      ['tests/test_ws.py:6 resolved'],
      'client_factory(…) is a ClientFactory called; its websocket_connect() a Session; with … as, what Session.__enter__ gives',
    );
    assert.deepEqual(
      callers('app/web.py', 'update', 2),
      ['tests/test_ws.py:12 resolved', 'tests/test_ws.py:8 resolved'],
      "a result's field, awaited or not",
    );
    assert.deepEqual(
      callers('app/web.py', 'close', 6),
      ['app/web.py:17 resolved'],
      "Client's own _init_transport(), not AsyncClient's",
    );
    assert.deepEqual(callers('app/web.py', 'close', 16), [], 'self._transport is a Transport, whose close it is');
    assert.deepEqual(callers('app/aweb.py', 'close', 2), []);
    assert.deepEqual(
      callers('app/flows.py', 'close', 7),
      [],
      "a field holding a library's class and a function typed as a library's generator hold no Pool, here or in a file that does not import the library",
    );
  });

  it("types no result by a name's namesake: another file's class, a library's function or class, a class's missing method, an awaitable", async () => {
    const r = await indexWorkspace({
      'r/__init__.py': '',
      'r/s1.py': [
        'class Session:',
        '    def send_text(self): pass',
        'def connect() -> Session:',
        '    return Session()',
        '',
      ].join('\n'),
      'r/s2.py': ['class Session:', '    def send_text(self): pass', ''].join('\n'),
      'r/use1.py': ['from r.s1 import connect', 'def f():', '    connect().send_text()', ''].join('\n'),
      'r/models.py': [
        'class Response:',
        '    def json(self): pass',
        'def get() -> Response:',
        '    return Response()',
        '',
      ].join('\n'),
      'r/use2.py': ['from requests import get', 'def f():', '    get("x").json()', ''].join('\n'),
      'r/plugins.py': [
        'class Plugin:',
        '    def run(self): pass',
        'class Loader:',
        '    def get(self) -> Plugin:',
        '        return Plugin()',
        '',
      ].join('\n'),
      'r/use3.py': [
        'from r.plugins import Plugin',
        'def f(d: dict, p: Plugin):',
        '    d.get("x").run()',
        '    p.run()',
        '',
      ].join('\n'),
      'r/net.py': [
        'class Req:',
        '    def send(self): pass',
        'class Agent:',
        '    def build(self) -> Req:',
        '        return Req()',
        '',
      ].join('\n'),
      'r/use4.py': [
        'import httpx',
        'from r.net import Req',
        'def f(c: httpx.Agent):',
        '    c.build().send()',
        '    httpx.Agent().build().send()',
        '',
      ].join('\n'),
      'r/x_client.py': [
        'class Tok:',
        '    def close(self): pass',
        'class Client:',
        '    def token(self) -> Tok:',
        '        return Tok()',
        '',
      ].join('\n'),
      'r/z_client.py': ['import httpx', 'class Client(httpx.Client):', '    pass', ''].join('\n'),
      'r/use5.py': ['from r.z_client import Client', 'def f(c: Client):', '    c.token().close()', ''].join('\n'),
      'r/callable.py': [
        'class Other:',
        '    def run(self): pass',
        'class Foo:',
        '    def __call__(self) -> Other:',
        '        return Other()',
        '    def run(self): pass',
        '    @classmethod',
        '    def make(cls):',
        '        inst = cls()',
        '        inst.run()',
        '',
      ].join('\n'),
      'r/jobs.py': [
        'import typing',
        'class Job:',
        '    def run(self): pass',
        'def fetch() -> typing.Awaitable[Job]:',
        '    ...',
        'async def go():',
        '    x = await fetch()',
        '    x.run()',
        '',
      ].join('\n'),
      'r/lib_req.py': [
        'import lib',
        'class Headers:',
        '    def update(self): pass',
        'class Request:',
        '    headers: Headers',
        'def make() -> lib.Request:',
        '    return lib.Request()',
        'class C:',
        '    def __init__(self):',
        '        self.other = make()',
        '    def go(self):',
        '        self.other.headers.update()',
        '',
      ].join('\n'),
    });
    try {
      const at = (path: string, name: string, line: number) => callersIn(r, path, name, line);
      assert.deepEqual(at('r/s1.py', 'send_text', 2), ['r/use1.py:3 resolved']);
      assert.deepEqual(at('r/s2.py', 'send_text', 2), [], "connect() returns the other file's Session");
      assert.deepEqual(at('r/models.py', 'json', 2), [], "requests' get is not the workspace's");
      assert.deepEqual(
        at('r/plugins.py', 'run', 2),
        ['r/use3.py:3 likely', 'r/use3.py:4 resolved'],
        "a dict's get is not Loader's",
      );
      assert.deepEqual(
        at('r/net.py', 'send', 2),
        ['r/use4.py:4 likely', 'r/use4.py:5 likely'],
        "httpx.Agent is the library's, not the workspace's Agent",
      );
      assert.deepEqual(at('r/x_client.py', 'close', 2), [], 'two classes are named Client');
      assert.deepEqual(
        at('r/callable.py', 'run', 6),
        ['r/callable.py:10 resolved'],
        'cls() is an instance of the class, not a call of one',
      );
      assert.deepEqual(at('r/callable.py', 'run', 2), []);
      assert.deepEqual(
        at('r/jobs.py', 'run', 3),
        ['r/jobs.py:8 likely'],
        'an Awaitable says nothing of what awaiting it gives',
      );
      assert.deepEqual(
        at('r/lib_req.py', 'update', 3),
        ['r/lib_req.py:12 likely'],
        "a library's Request has no workspace Request's fields",
      );
    } finally {
      r.dispose();
    }
  });

  it('counts no Python call on a result for a TypeScript method', async () => {
    const r = await indexWorkspace({
      'src/foo.ts': [
        'export class Foo {',
        '  frobnicate(): void {}',
        '}',
        'export class Store {',
        '  get(): Foo {',
        '    return new Foo();',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/use.ts': ["import { Store } from './foo';", 'new Store().get().frobnicate();', ''].join('\n'),
      'py/use.py': ['from lib import get', 'get().frobnicate()', ''].join('\n'),
    });
    try {
      const found = r.index
        .callers({ name: 'frobnicate', path: 'src/foo.ts', line: 2 })
        .filter((c) => c.confidence !== 'name')
        .map((c) => `${c.path}:${c.line} ${c.confidence}`);
      assert.deepEqual(found, ['src/use.ts:2 resolved']);
    } finally {
      r.dispose();
    }
  });

  it("tells a submodule's function called through its package from a method of that name", () => {
    assert.deepEqual(
      callers('app/json.py', 'loads', 4),
      ['app/use_json.py:5 likely'],
      'app.json is a module of the workspace; app.provider is not',
    );
  });

  it('reads bindings a scope may hide: lambdas, global, walrus, match, chains, splats, with and except', async () => {
    const f = await factsOfSource(
      'python',
      [
        'client = Client()', // 1
        'def rebind():', // 2
        '    global client', // 3
        '    client = Other()', // 4
        'def f(item: Foo, *items: Item, **kw):', // 5
        '    sorted([], key=lambda item: item.m1()); client.m2()', // 6
        '    c = Foo()', // 7
        '    if (c := get_bar()):', // 8
        '        c.m3()', // 9
        '    b = Other(); a = b = Foo(); b.m4()', // 10
        '    for i in items: i.m5()', // 11
        '    kw.m6()', // 12
        '    with session_scope() as s, Pool() as p: s.m7(); p.m8()', // 13
        '    for e in []: e.m9()', // 14
        '    try: pass', // 15
        '    except ValueError as e: pass', // 16
        '    match item:', // 17
        '        case Bar() as item2: item2.m10()', // 18
        '    item2 = Foo()', // 19
      ].join('\n'),
    );
    const at = f.calls.filter((c) => /^m\d+$/.test(c.name)).map((c) => `${c.qualifier ?? ''}.${c.name}`);
    assert.deepEqual(at, [
      'item.m1',
      'client.m2',
      'c.m3',
      'b.m4',
      'type:Item.m5',
      'type:dict.m6',
      'type:()()session_scope#__enter__.m7',
      'type:Pool.m8',
      'e.m9',
      'item2.m10',
    ]);
    const deep = await factsOfSource(
      'python',
      [
        'x = ' + '('.repeat(5000) + 'Foo()' + ')'.repeat(5000),
        '('.repeat(3000) + 'a,' + '),'.repeat(2999) + ') = 1',
        'x.m()',
      ].join('\n'),
    );
    assert.ok(
      deep.calls.some((c) => c.name === 'm'),
      'deep nesting is read without overflowing the stack',
    );
  });

  it('reads annotations, instances made, rebinding and caught exceptions', async () => {
    const f = await factsOfSource(
      'python',
      [
        'import typing as t', // 1
        'T = t.TypeVar("T")', // 2
        'def f(a: t.Optional["Foo"], b: Bar | None, c: T, d: t.Any, e: dict[str, Foo], *args, **kw):', // 3
        '    a.m1(); b.m2(); c.m3(); d.m4(); e.m5()', // 4
        '    x = Foo(); x = Bar(); x.m6()', // 5
        '    y: Foo = make(); y = other(); y.m7()', // 6
        '    try:', // 7
        '        pass', // 8
        '    except HTTPError as err:', // 9
        '        err.m8()', // 10
        '    os.environ.copy().m9(); {}.m10(); Foo(1).m11(); self.__dict__.pop()', // 11
      ].join('\n'),
    );
    const at = (line: number) =>
      f.calls
        .filter((c) => c.line === line && /^(m\d+|pop)$/.test(c.name))
        .map((c) => `${c.qualifier ?? ''}.${c.name}`);
    assert.deepEqual(
      at(4),
      ['type:Foo.m1', 'type:Bar.m2', 'c.m3', 'd.m4', 'type:dict.m5'],
      'Optional and a quoted name, X | None; a type variable and Any say nothing',
    );
    assert.deepEqual(at(5), ['x.m6'], 'bound to two classes: unknown');
    assert.deepEqual(at(6), ['type:Foo.m7'], 'an annotation holds over a rebinding');
    assert.deepEqual(at(10), ['type:HTTPError.m8']);
    assert.deepEqual(
      at(11),
      ['().m9', 'type:dict.m10', 'type:Foo.m11', 'type:dict.pop'],
      "a library's result is unknown; a literal, an instance made in place and __dict__ are known",
    );
    const imports = await factsOfSource(
      'python',
      [
        'from rich.console import Console',
        'import os.path as osp, json',
        'def f():',
        '    console = Console()',
        '    console.m1(); osp.m2(); json.m3()',
      ].join('\n'),
    );
    assert.deepEqual(
      imports.calls.filter((c) => /^m\d$/.test(c.name)).map((c) => `${c.qualifier ?? ''}.${c.name}`),
      ['type:Console.m1', 'osp.m2', 'json.m3'],
      'the module an import names (rich.console) binds no name here',
    );
    const cls = await factsOfSource(
      'python',
      [
        'class A(Base, t.Generic[T], metaclass=M):',
        '    x: Foo',
        '    def __init__(self, b: "Bar"):',
        '        self.b = b',
        '        self.c = None',
        '        self.c = Baz()',
        '    @property',
        '    def p(self) -> Qux:',
        '        return Qux()',
      ].join('\n'),
    );
    const a = cls.symbols.find((s) => s.name === 'A')!;
    assert.deepEqual(a.supers, ['Base', 'Generic']);
    assert.deepEqual({ ...a.fields }, { b: 'Bar', c: 'Baz', x: 'Foo', p: 'Qux' });
  });

  it('gives a loop over a typed collection (a parameter, a variable, an own field) its element class', async () => {
    const f = await factsOfSource(
      'python',
      [
        'class Multi:', // 1
        '    children: list[Decoder]', // 2
        '    def __init__(self, items: t.Sequence["Item"]):', // 3
        '        self.items = items', // 4
        '    def go(self, xs: Optional[list[X]], d: dict[str, X]):', // 5
        '        for c in self.children: c.m1()', // 6
        '        for i in self.items: i.m2()', // 7
        '        for x in xs: x.m3()', // 8
        '        xs.m4(); [y.m5() for y in xs]', // 9
        '        for k in d: k.m6()', // 10
      ].join('\n'),
    );
    assert.deepEqual(
      f.calls.filter((c) => /^m\d$/.test(c.name)).map((c) => `${c.qualifier ?? ''}.${c.name}`),
      ['type:Decoder.m1', 'type:Item.m2', 'type:X.m3', 'type:list.m4', 'type:X.m5', 'k.m6'],
      "a dict's keys are no element of its value type",
    );
  });

  it('types a function that annotates no return by what all its returns agree on, and a generator by nothing', async () => {
    const f = await factsOfSource(
      'python',
      [
        'from app import Client, Runner', // 1
        'def make():', // 2
        '    if x:', // 3
        '        return None', // 4
        '    return Client()', // 5
        'def either(flag):', // 6
        '    if flag:', // 7
        '        return Client()', // 8
        '    return Runner()', // 9
        'def held():', // 10
        '    c = Client()', // 11
        '    def inner():', // 12
        '        return Runner()', // 13
        '    return c', // 14
        'def gen():', // 15
        '    yield Client()', // 16
        '    return Client()', // 17
        'def other():', // 18
        '    return make()', // 19
        'def annotated() -> Runner:', // 20
        '    return Client()', // 21
        'class B:', // 22
        '    def chain(self):', // 23
        '        return self', // 24
        '    @classmethod', // 25
        '    def create(cls):', // 26
        '        return cls()', // 27
      ].join('\n'),
    );
    const returns = Object.fromEntries(
      f.symbols.filter((s) => s.kind !== 'class').map((s) => [s.name, s.returns ?? '']),
    );
    assert.deepEqual(returns, {
      make: 'Client',
      either: '',
      held: 'Client',
      inner: 'Runner',
      gen: '',
      other: '',
      annotated: 'Runner',
      chain: 'B',
      create: 'B',
    });
  });

  it("gives a test's bare parameters the fixture of that name, from its module or the nearest conftest.py", async () => {
    const r = await indexWorkspace({
      'cli/__init__.py': '',
      'cli/core.py': ['class Command:', '    def invoke(self, ctx): pass', ''].join('\n'),
      'cli/testing.py': [
        'class Result:',
        '    def check(self): pass',
        'class CliRunner:',
        '    def invoke(self, cli) -> Result:',
        '        return Result()',
        '',
      ].join('\n'),
      'tests/conftest.py': [
        'import pytest',
        'from cli.testing import CliRunner',
        '@pytest.fixture(scope="function")',
        'def runner(request):',
        '    return CliRunner()',
        '',
      ].join('\n'),
      'tests/test_run.py': [
        'from cli.core import Command',
        'def test_run(runner):',
        '    result = runner.invoke(Command())',
        '    result.check()',
        '',
      ].join('\n'),
      'tests/deep/conftest.py': [
        'import pytest',
        'from cli.core import Command',
        '@pytest.fixture',
        'def runner():',
        '    yield Command()',
        '',
      ].join('\n'),
      'tests/deep/test_deep.py': [
        'from cli.core import Command',
        'def test_deep(runner):',
        '    runner.invoke(None)',
        '',
      ].join('\n'),
      'other/test_plugin.py': [
        'from cli.core import Command',
        'def test_plugin(client):',
        '    client.invoke(Command())',
        '',
      ].join('\n'),
    });
    try {
      const at = (path: string, name: string, line: number) => callersIn(r, path, name, line);
      assert.deepEqual(
        at('cli/core.py', 'invoke', 2),
        ['other/test_plugin.py:3 likely', 'tests/deep/test_deep.py:3 resolved'],
        "tests/ gets conftest's CliRunner, tests/deep/ its own conftest's Command (yielded); a plugin's fixture may be anything",
      );
      assert.deepEqual(
        at('cli/testing.py', 'invoke', 4),
        ['tests/test_run.py:3 resolved'],
        'a file that never names CliRunner calls it through the fixture',
      );
      assert.deepEqual(
        at('cli/testing.py', 'check', 2),
        ['tests/test_run.py:4 resolved'],
        "and what the fixture's method returns",
      );
    } finally {
      r.dispose();
    }
  });

  it("takes a library's class, or what a library's module holds, for no workspace class", async () => {
    const r = await indexWorkspace({
      'web/__init__.py': '',
      'web/responses.py': [
        'class Response:',
        '    def render(self): pass',
        'class Request:',
        '    def json(self): pass',
        '',
      ].join('\n'),
      'web/client.py': [
        'import httpx',
        'from web.responses import Request',
        'class Client:',
        '    def get(self, url) -> httpx.Response:',
        '        ...',
        'def f(c: Client, req: Request):',
        '    c.get("/").json()',
        '    req.json()',
        '',
      ].join('\n'),
      'web/settings.py': [
        'import os',
        'import web',
        'from web.responses import Request',
        'class Settings:',
        '    def update(self, other): pass',
        'def load(app_settings, r: Request):',
        '    os.environ.update({})',
        '    web.registry.update({})',
        '    app_settings.update({})',
        '',
      ].join('\n'),
    });
    try {
      assert.deepEqual(
        callersIn(r, 'web/responses.py', 'json', 4),
        ['web/client.py:8 resolved'],
        "httpx's Response is not web.responses.Response, and neither has Request's json",
      );
      assert.deepEqual(
        callersIn(r, 'web/settings.py', 'update', 5),
        ['web/settings.py:8 likely', 'web/settings.py:9 likely'],
        "what the library module os holds has no workspace method; the workspace's own package may hold anything",
      );
    } finally {
      r.dispose();
    }
  });

  it("takes str's, bytes', list's and dict's methods on a value nothing types for theirs, unless its name says it holds the class", async () => {
    const r = await indexWorkspace({
      'codec/__init__.py': '',
      'codec/decoders.py': [
        'class ContentDecoder:',
        '    def decode(self, data): pass',
        'class GZipDecoder(ContentDecoder):',
        '    def decode(self, data): pass',
        '',
      ].join('\n'),
      'codec/models.py': [
        'from codec.decoders import GZipDecoder', // 1
        'def read(key, decoder, gzip_decoder, raw):', // 2
        '    key.decode("utf-8")', // 3
        '    decoder.decode(raw)', // 4
        '    gzip_decoder.decode(raw)', // 5
        '    GZipDecoder().decode(raw)', // 6
        '',
      ].join('\n'),
    });
    try {
      assert.deepEqual(callersIn(r, 'codec/decoders.py', 'decode', 4), [
        'codec/models.py:4 likely',
        'codec/models.py:5 likely',
        'codec/models.py:6 resolved',
      ]);
    } finally {
      r.dispose();
    }
  });
});
