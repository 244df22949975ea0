import { strict as assert } from 'node:assert';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

describe('callers of a constructor', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'pkg/rules.py':
        'class Rule:\n    def __init__(self, path):\n        self.path = path\n\n    def build(self):\n        return self.path\n',
      'pkg/app.py': 'from pkg.rules import Rule\n\n\ndef routes():\n    return [Rule("/a"), Rule("/b")]\n',
      // Another class's constructor chain is not a construction of Rule.
      'pkg/errors.py': 'class RoutingError(Exception):\n    def __init__(self):\n        super().__init__()\n',
      'src/cart.ts': 'export class Cart {\n  constructor(public id: string) {}\n}\n',
      'src/shop.ts': "import { Cart } from './cart';\nexport function open() {\n  return new Cart('x');\n}\n",
    });
  });

  after(() => ws.dispose());

  const show = (name: string, path: string, line: number) =>
    ws.index.callers({ name, path, line }).map((c) => `${c.path}:${c.line} ${c.confidence}`);

  it('are the constructions of its class: Rule(…) for a Python __init__, not super().__init__() elsewhere', () => {
    assert.deepEqual(show('__init__', 'pkg/rules.py', 3), ['pkg/app.py:5 resolved', 'pkg/app.py:5 resolved']);
  });

  it('are the new expressions of its class for a TypeScript constructor', () => {
    assert.deepEqual(show('constructor', 'src/cart.ts', 2), ['src/shop.ts:3 resolved']);
  });
});
