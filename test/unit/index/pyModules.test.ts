import { strict as assert } from 'node:assert';
import { callersIn, indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

describe('Python callers through the functions of modules imported whole', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'net/__init__.py': 'from net.sessions import Session, session\n',
      'net/sessions.py': ['class Session:', '    def get(self, url): pass', '', 'def session() -> Session:', '    return Session()', ''].join('\n'),
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
        '',
      ].join('\n'),
      // A library's function may give back a workspace object (`weakref.ref(self)()`): no class is known.
      'app/app.py': ['import weakref', 'class App:', '    def send_file(self): pass', '    def setup(self):', '        ref = weakref.ref(self)', '        return lambda: ref().send_file()', ''].join('\n'),
      // Never names Session: the result of the module's function says what `c` is.
      'app/run.py': ['import net', 'def run():', '    c = net.session()', '    c.get("/")', ''].join('\n'),
    });
  });

  after(() => ws.dispose());

  it("types a variable by what a module's function returns, also in a file that never names the class", () => {
    assert.deepEqual(callersIn(ws, 'net/sessions.py', 'get', 2), ['app/run.py:4 resolved', 'tests/test_net.py:7 resolved', 'tests/test_net.py:8 resolved', 'tests/test_net.py:9 resolved']);
  });

  it("takes what a library module's function returns for a value of unknown class, whose get() is most likely a dict's", () => {
    assert.deepEqual(callersIn(ws, 'net/cache.py', 'get', 2), ['tests/test_net.py:13 resolved']);
    assert.deepEqual(callersIn(ws, 'app/app.py', 'send_file', 3), ['app/app.py:6 likely']);
  });
});
