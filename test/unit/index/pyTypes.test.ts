import { strict as assert } from 'node:assert';
import { factsOfSource, indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

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
      // A test's own class named like the workspace's Context: a function's, not a second Context.
      'tests/test_ctx.py': ['def test_local():', '    class Context:', '        pass', ''].join('\n'),
    });
  });

  after(() => ws.dispose());

  const callers = (path: string, name: string, line: number) => ws.index.callers({ name, path, line }).filter((c) => c.confidence !== 'name').map((c) => `${c.path}:${c.line} ${c.confidence}`).sort();

  it("follows a parameter's annotation into the fields a class gives itself, a class's annotated fields, and super() to the one base", () => {
    assert.deepEqual(callers('app/sessions.py', 'open_session', 2), ['app/ctx.py:9 resolved', 'app/sessions.py:11 likely']);
    assert.deepEqual(callers('app/sessions.py', 'open_session', 6), ['app/ctx.py:9 likely', 'app/sessions.py:11 resolved'], 'through the base that declares it; super() is the one base');
    assert.deepEqual(callers('app/sessions.py', 'open_session', 10), ['app/ctx.py:9 likely', 'app/sessions.py:11 likely'], 'only through the bases that declare it');
  });

  it('tells calls on a known class from calls on another, and keeps an unknown receiver as likely', () => {
    assert.deepEqual(callers('app/core.py', 'close', 9), ['app/other.py:11 resolved', 'app/other.py:13 likely', 'app/other.py:22 likely', 'app/other.py:24 resolved', 'app/other.py:27 resolved'], "a parameter's factory() is no module function; make_response() says it returns a Response");
    assert.deepEqual(callers('app/other.py', 'close', 4), ['app/other.py:12 resolved', 'app/other.py:13 likely', 'app/other.py:15 resolved', 'app/other.py:22 likely', 'app/other.py:8 resolved']);
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
    const at = (line: number) => f.calls.filter((c) => c.line === line && /^(m\d+|pop)$/.test(c.name)).map((c) => `${c.qualifier ?? ''}.${c.name}`);
    assert.deepEqual(at(4), ['type:Foo.m1', 'type:Bar.m2', 'c.m3', 'd.m4', 'type:dict.m5'], 'Optional and a quoted name, X | None; a type variable and Any say nothing');
    assert.deepEqual(at(5), ['x.m6'], 'bound to two classes: unknown');
    assert.deepEqual(at(6), ['type:Foo.m7'], 'an annotation holds over a rebinding');
    assert.deepEqual(at(10), ['type:HTTPError.m8']);
    assert.deepEqual(at(11), ['().m9', 'type:dict.m10', 'type:Foo.m11', 'type:dict.pop'], "a library's result is unknown; a literal, an instance made in place and __dict__ are known");
    const imports = await factsOfSource('python', ['from rich.console import Console', 'import os.path as osp, json', 'def f():', '    console = Console()', '    console.m1(); osp.m2(); json.m3()'].join('\n'));
    assert.deepEqual(
      imports.calls.filter((c) => /^m\d$/.test(c.name)).map((c) => `${c.qualifier ?? ''}.${c.name}`),
      ['type:Console.m1', 'osp.m2', 'json.m3'],
      'the module an import names (rich.console) binds no name here',
    );
    const cls = await factsOfSource('python', ['class A(Base, t.Generic[T], metaclass=M):', '    x: Foo', '    def __init__(self, b: "Bar"):', '        self.b = b', '        self.c = None', '        self.c = Baz()', '    @property', '    def p(self) -> Qux:', '        return Qux()'].join('\n'));
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
});
