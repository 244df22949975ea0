import { strict as assert } from 'node:assert';
import { callersIn, indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

describe('Python callers through the functions of modules imported whole', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'net/__init__.py': 'from net.sessions import Session, session\n',
      'net/sessions.py': [
        'from net.headers import Headers',
        'class Session:',
        '    def get(self, url): pass',
        '    def __init__(self):',
        '        self.headers = Headers()',
        'def session() -> Session:',
        '    return Session()',
        '',
      ].join('\n'),
      'net/headers.py': ['class Headers:', '    def update(self, other): pass', ''].join('\n'),
      'net/cache.py': ['class Cache:', '    def get(self, key): pass', ''].join('\n'),
      'tests/test_net.py': [
        'import json', // 1
        'import net', // 2
        'import net.sessions as sessions_mod', // 3
        'from net.cache import Cache', // 4
        'def test_get(cache: Cache):', // 5
        '    s = net.session()', // 6
        '    s.get("/")', // 7
        '    net.session().get("/")', // 8
        '    sessions_mod.session().get("/")', // 9
        '    d = json.loads("{}")', // 10
        '    d.get("k")', // 11
        '    json.loads("{}").get("k")', // 12
        '    cache.get("k")', // 13
        '    s.headers.update({})', // 14
        '',
      ].join('\n'),
      // A library's function may give back a workspace object (`weakref.ref(self)()`): no class is known.
      'app/app.py': [
        'import weakref',
        'class App:',
        '    def send_file(self): pass',
        '    def setup(self):',
        '        ref = weakref.ref(self)',
        '        return lambda: ref().send_file()',
        '',
      ].join('\n'),
      // A field that holds a library module's result, or something no class is known for.
      'net/stream.py': [
        'import zlib', // 1
        'class Stream:', // 2
        '    def flush(self): pass', // 3
        'class Inflater:', // 4
        '    def __init__(self, stream: Stream):', // 5
        '        self.decompressor = zlib.decompressobj()', // 6
        '        self.stream = stream', // 7
        '        self.stream_buffer = make_buffer()', // 8
        '        self.pending = make_buffer()', // 9
        '    def done(self):', // 10
        '        self.decompressor.flush()', // 11
        '        self.stream.flush()', // 12
        '        self.stream_buffer.flush()', // 13
        '        self.pending.flush()', // 14
        '',
      ].join('\n'),
      // Never names Session: the result of the module's function says what `c` is.
      'app/run.py': ['import net', 'def run():', '    c = net.session()', '    c.get("/")', ''].join('\n'),
    });
  });

  after(() => ws.dispose());

  it("types a variable by what a module's function returns, also in a file that never names the class", () => {
    assert.deepEqual(callersIn(ws, 'net/sessions.py', 'get', 3), [
      'app/run.py:4 resolved',
      'tests/test_net.py:7 resolved',
      'tests/test_net.py:8 resolved',
      'tests/test_net.py:9 resolved',
    ]);
  });

  it("takes a file's or a dict's method on a field of no known class for theirs, unless the field's name says it holds the class", () => {
    assert.deepEqual(callersIn(ws, 'net/stream.py', 'flush', 3), [
      'net/stream.py:12 resolved',
      'net/stream.py:13 likely',
    ]);
  });

  it("follows a field of what a module's function returns", () => {
    assert.deepEqual(callersIn(ws, 'net/headers.py', 'update', 2), ['tests/test_net.py:14 resolved']);
  });

  it("takes what a library module's function returns for a value of unknown class, whose get() is most likely a dict's", () => {
    assert.deepEqual(callersIn(ws, 'net/cache.py', 'get', 2), ['tests/test_net.py:13 resolved']);
    assert.deepEqual(callersIn(ws, 'app/app.py', 'send_file', 3), ['app/app.py:6 likely']);
  });
});
