import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { run } from '../../../src/core/store/sqlite';
import { SubscriptionMaterializer } from '../../../src/core/subscriptions/materializer';
import { SubscriptionError, SubscriptionRegistry } from '../../../src/core/subscriptions/registry';
import { compileUserPattern, UserPatternError } from '../../../src/core/subscriptions/userPattern';
import { Clock, TempWorkspace } from './fixtures';

function refusal(source: string, flags = ''): UserPatternError {
  try {
    compileUserPattern(source, flags);
  } catch (err) {
    assert.ok(err instanceof UserPatternError, String(err));
    return err;
  }
  assert.fail(`/${source}/${flags} should be refused`);
}

const probe = join(__dirname, '..', '..', 'fixtures', 'subscriptions', 'materializeOnce.js');

describe('user patterns', () => {
  it('match like JavaScript regular expressions for the usual syntax and flags', () => {
    const cases: [string, string, string, boolean][] = [
      ['TODO|FIXME', '', 'x // FIXME later', true],
      ['todo', 'i', 'TODO: rotate', true],
      ['^\\s*export\\s+(?:async\\s+)?function\\b', '', '  export async function go()', true],
      ['caf\\u00e9', '', 'un café', true],
      ['(?<word>\\w+)-\\d{2,4}', '', 'ticket-2024', true],
      ['a.b', '', 'a\nb', false],
      ['a.b', 's', 'a\nb', true],
      ['^b$', 'm', 'a\nb\nc', true],
      ['\\p{Lu}{3}', 'u', 'abcDEF', true],
    ];
    for (const [source, flags, text, expected] of cases) {
      assert.equal(
        compileUserPattern(source, flags).test(text),
        expected,
        `/${source}/${flags} on ${JSON.stringify(text)}`,
      );
      assert.equal(new RegExp(source, flags).test(text), expected, 'same as JavaScript');
    }
  });

  it('runs catastrophic patterns in linear time', () => {
    const re = compileUserPattern('(a+)+$');
    assert.equal(re.test('a'.repeat(41) + '!'), false);
    assert.equal(re.test('a'.repeat(100_000) + '!'), false);
    assert.equal(compileUserPattern('(x+x+)+y').test('x'.repeat(5000)), false);
  });

  it('refuses back-references and look-around, naming the pattern and the reason', () => {
    for (const [source, what] of [
      ['(a)\\1', /back-reference \(\\1\)/],
      ['(?<q>[\'"]).*\\k<q>', /named back-reference/],
      ['foo(?=bar)', /look-ahead/],
      ['foo(?!bar)', /look-ahead/],
      ['(?<=\\$)\\d+', /look-behind/],
      ['(?<!x)y', /look-behind/],
    ] as const) {
      const err = refusal(source);
      assert.equal(err.reason, 'unsupported', source);
      assert.ok(err.message.includes(`/${source}/`), err.message);
      assert.match(err.message, what);
    }
    // Inside a character class these are plain characters.
    assert.equal(compileUserPattern('[(?=!]+').test('(?='), true);
  });

  it('refuses invalid syntax with the JavaScript message, unknown flags, and patterns too large to run quickly', () => {
    assert.equal(refusal('foo(').reason, 'invalid');
    assert.match(refusal('foo', 'x').message, /flag "x"/);
    assert.equal(refusal('(?:abcdefgh|ijklmnop){400}').reason, 'too_complex');
    assert.equal(refusal('(?:[a-z]{1,100}){1,50}').reason, 'unsupported', "over RE2's own repeat limit");
  });
});

describe('pattern subscriptions', () => {
  let ws: TempWorkspace;
  let clock: Clock;
  beforeEach(() => {
    ws = new TempWorkspace();
    clock = new Clock();
  });
  afterEach(() => ws.cleanup());

  it('refuses a pattern the linear-time engine cannot run at subscribe time', async () => {
    ws.write('src/a.ts', 'x\n');
    const reg = new SubscriptionRegistry(await ws.openStore(), { root: ws.root, now: clock.now });
    assert.throws(
      () => reg.subscribe({ kind: 'pattern', target: 'src/a.ts', pattern: 'foo(?=bar)' }),
      (err: unknown) =>
        err instanceof SubscriptionError &&
        err.reason === 'invalid_regex' &&
        /\/foo\(\?=bar\)\/.*look-ahead/.test(err.message),
    );
    assert.deepEqual(reg.list(), []);
  });

  it('materializes (a+)+$ on a 41-character line at once, in a process that would otherwise hang', () => {
    ws.write('src/long.txt', 'aaa\n' + 'a'.repeat(41) + '!\n' + 'b\n');
    // A hang guard, not a timing assertion: the child is killed if matching never ends.
    const child = spawnSync(process.execPath, [probe, ws.root, ws.stateDir, 'src/long.txt', '(a+)+$'], {
      timeout: 15_000,
      encoding: 'utf8',
    });
    assert.equal(child.signal, null, 'the materialization finished');
    assert.equal(child.status, 0, child.stderr);
    assert.match(child.stdout, /1 \| aaa/);
    assert.doesNotMatch(child.stdout, /!/);
  });

  it('disables a stored pattern the engine cannot run, and says so in the text', async () => {
    ws.write('src/a.ts', 'foobar\n');
    const store = await ws.openStore();
    const reg = new SubscriptionRegistry(store, { root: ws.root, now: clock.now });
    const { subscription } = reg.subscribe({ kind: 'pattern', target: 'src/a.ts', pattern: 'foo' });
    // As an older release stored it, before patterns were checked for the linear-time engine.
    store.write(
      (db) =>
        run(db, 'UPDATE subscriptions SET options = ? WHERE id = ?', [
          JSON.stringify({ path: 'src/a.ts', pattern: 'foo(?=bar)', flags: '' }),
          subscription.id,
        ]),
      { immediate: true },
    );
    const [r] = await new SubscriptionMaterializer(reg).materialize();
    assert.match(r.text, /pattern \/foo\(\?=bar\)\/ is disabled: .*look-ahead/);
  });

  it('stops matching at its time budget and says where it stopped', async () => {
    ws.write('src/big.txt', Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n'));
    const reg = new SubscriptionRegistry(await ws.openStore(), { root: ws.root, now: clock.now });
    reg.subscribe({ kind: 'pattern', target: 'src/big.txt', pattern: 'line' });
    const [r] = await new SubscriptionMaterializer(reg, { patternBudgetMs: -1 }).materialize();
    assert.match(r.text, /\[matching \/line\/ stopped at line 64 of 300 of src\/big\.txt: it took over -1 ms/);
    assert.match(r.text, /^ +1 \| line 0\n/);
  });
});
