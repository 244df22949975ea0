#!/usr/bin/env node
// Creates a ready-to-explore copy of this demo project: the files, a git history of a few weeks
// (with authors, dates and files that change together), one uncommitted edit, and a failing test
// report as the project's test runner would write it. Usage: node setup.mjs <target-folder>
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const target = resolve(process.argv[2] ?? '');
if (!process.argv[2]) {
  console.error('usage: node setup.mjs <target-folder>');
  process.exit(2);
}
if (existsSync(target) && readdirSync(target).length > 0) {
  if (!existsSync(join(target, '.demo-workspace'))) {
    console.error(`${target} is not empty and is not a demo workspace; refusing to touch it`);
    process.exit(2);
  }
  rmSync(target, { recursive: true, force: true });
}
mkdirSync(target, { recursive: true });

const DAY = 86_400_000;
const now = Date.now();
const people = {
  ana: ['Ana Ruiz', 'ana@shopfront.example'],
  tom: ['Tom Berg', 'tom@shopfront.example'],
  lee: ['Lee Chen', 'lee@shopfront.example'],
};

// Each commit lists the files it creates and the edits it made: [file, text after, text before].
const commits = [
  { days: 40, who: 'ana', message: 'Start the pricing library', creates: ['README.md', 'package.json', 'tsconfig.json', '.gitignore', 'docs/adr/0001-record-architecture-decisions.md', 'docs/adr/0002-store-amounts-as-integer-cents.md', 'src/money.ts', 'src/pricing.ts'] },
  {
    days: 33, who: 'tom', message: 'Add percentOf to Money\n\nDiscounts need percentages of an amount without leaving the Money type.',
    edits: [
      ['src/money.ts', 'export function percentOf(m: Money, percent: number): Money {\n  return { minor: Math.round((m.minor * percent) / 100), currency: m.currency };\n}\n\n', ''],
      ['src/pricing.ts', 'import { add, money, percentOf, toCents, type Money }', 'import { add, money, toCents, type Money }'],
    ],
  },
  {
    days: 21, who: 'ana', message: 'Add a cart with discounted totals', creates: ['src/cart.ts', 'test/pricing.test.ts'],
    edits: [['src/pricing.ts', 'export function legacyTotalCents(items: LineItem[]): number {\n  return items.reduce((sum, item) => sum + toCents(item.price) * item.quantity, 0);\n}\n', '']],
  },
  {
    days: 12, who: 'ana', message: 'Cap stacked discounts at 50% (ADR-3)\n\nLoyalty plus seasonal discounts reached 90% on some carts.', creates: ['docs/adr/0003-cap-discounts-at-fifty-percent.md'],
    edits: [
      ['src/pricing.ts', '// ADR-3: every discount goes through applyDiscount so the cap holds for all callers.\nconst MAX_DISCOUNT_PERCENT = 50;\n\n', ''],
      ['src/pricing.ts', '  const capped = Math.min(requested, MAX_DISCOUNT_PERCENT);', '  const capped = requested;'],
      ['src/cart.ts', '  total(discounts: number[] = []): Money {', '  total(discounts: number[]): Money {'],
      ['test/pricing.test.ts', "\n  it('caps stacked discounts at 50%', () => {\n    expect(applyDiscount(money(100), [40, 30]).minor).toBe(5000);\n  });\n", ''],
    ],
  },
  {
    days: 6, who: 'tom', message: 'Checkout applies loyalty and seasonal discounts', creates: ['src/checkout.ts'],
    edits: [
      ['src/cart.ts', '\n  lines(): readonly LineItem[] {\n    return this.items;\n  }\n', '\n'],
      ['src/pricing.ts', 'export interface LineItem {\n  sku: string;\n', 'export interface LineItem {\n  sku: string; // stock keeping unit\n'],
    ],
  },
  {
    days: 2, who: 'lee', message: 'Deprecate toCents in favour of Money (ADR 4)', creates: ['docs/adr/0004-use-a-money-type-for-all-amounts.md'],
    edits: [
      ['src/money.ts', '/**\n * Converts a price to integer cents.\n * @deprecated Use `money()` and the Money type instead (ADR 4).\n */', '/** Converts a price to integer cents. */'],
      ['docs/adr/0002-store-amounts-as-integer-cents.md', 'Superseded by [4. Use a Money type for all amounts](0004-use-a-money-type-for-all-amounts.md)', 'Accepted'],
      ['README.md', ' The old `toCents` helper is deprecated.', ''],
    ],
  },
];

const finalText = new Map();
for (const rel of listFiles(here)) finalText.set(rel, readFileSync(join(here, rel), 'utf8'));

function listFiles(dir, prefix = '') {
  const out = [];
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'reports' && e.name !== '.git') out.push(...listFiles(dir, rel));
    } else if (rel !== 'setup.mjs') out.push(rel);
  }
  return out;
}

/** A file's text as of commit k: the final text with every later commit's edits undone. */
function textAt(rel, k) {
  let text = finalText.get(rel);
  for (let j = commits.length - 1; j > k; j--) {
    for (const [file, after, before] of commits[j].edits ?? []) {
      if (file !== rel) continue;
      if (!text.includes(after)) throw new Error(`demo history: '${after.slice(0, 40)}' not found in ${rel}`);
      text = text.replace(after, before);
    }
  }
  return text;
}

function git(args, env = {}) {
  return execFileSync('git', args, { cwd: target, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

git(['init', '-q', '-b', 'main']);
git(['config', 'user.name', 'Demo']);
git(['config', 'user.email', 'demo@shopfront.example']);
git(['config', 'commit.gpgsign', 'false']);
const created = new Set();
commits.forEach((c, k) => {
  for (const rel of c.creates ?? []) created.add(rel);
  for (const rel of created) {
    const abs = join(target, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, textAt(rel, k));
  }
  const [name, email] = people[c.who];
  const date = new Date(now - c.days * DAY + k * 3_600_000).toISOString();
  git(['add', '-A']);
  git(['commit', '-q', '-m', c.message], { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email, GIT_COMMITTER_DATE: date });
});
for (const rel of finalText.keys()) if (!created.has(rel)) throw new Error(`demo history never creates ${rel}`);

// Work in progress: an edit inside applyDiscount that is not committed yet.
const pricing = join(target, 'src/pricing.ts');
writeFileSync(pricing, readFileSync(pricing, 'utf8').replace('  const requested = percents.reduce((a, b) => a + b, 0);', '  const requested = percents.filter((p) => p > 0).reduce((a, b) => a + b, 0);'));

// The last test run, as vitest's junit reporter writes it (reports/ is git-ignored).
mkdirSync(join(target, 'reports'), { recursive: true });
const testFile = join(target, 'test/pricing.test.ts');
writeFileSync(
  join(target, 'reports/junit.xml'),
  `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="vitest tests" tests="2" failures="1" errors="0" time="0.412" timestamp="${new Date().toISOString()}">
    <testsuite name="test/pricing.test.ts" timestamp="${new Date().toISOString()}" hostname="ci" tests="2" failures="1" errors="0" skipped="0" time="0.012">
        <testcase classname="test/pricing.test.ts" name="applyDiscount &gt; applies a percentage discount" time="0.002">
        </testcase>
        <testcase classname="test/pricing.test.ts" name="applyDiscount &gt; caps stacked discounts at 50%" time="0.004">
            <failure message="expected 3000 to be 5000 // Object.is equality" type="AssertionError">
AssertionError: expected 3000 to be 5000 // Object.is equality
 ❯ applyDiscount ${join(target, 'src/pricing.ts')}:20:10
 ❯ ${testFile}:11:49
            </failure>
        </testcase>
    </testsuite>
</testsuites>
`,
);
writeFileSync(join(target, '.demo-workspace'), 'Created by demo-workspace/setup.mjs; safe to delete.\n');
writeFileSync(join(target, '.git', 'info', 'exclude'), '.demo-workspace\n', { flag: 'a' });
console.log(`demo workspace ready at ${target}`);
