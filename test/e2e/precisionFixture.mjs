// A small Next.js app shaped like the places where a panel fills with noise: two route handlers that
// both export POST (and a test that calls only b's), broad decision records that every file shares
// words with next to one record about route a, a commit that reformatted the whole tree, and a style
// sheet that a Stylelint record governs. Real git, with dated commits.
//
//   node test/e2e/precisionFixture.mjs <empty-folder>
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const DAY = 86_400;

/** Route a: POST validates an order; its lines change in three focused commits. */
const routeA = (step) => `import { NextResponse } from 'next/server';

// Orders come in here from the checkout form.
export async function POST(request: Request) {
  const order = await request.json();
${step >= 1 ? "  if (!order.items?.length) return NextResponse.json({ error: 'empty order' }, { status: 400 });\n" : ''}${step >= 2 ? "  if (order.total < 0) return NextResponse.json({ error: 'negative total' }, { status: 400 });\n" : ''}${step >= 3 ? '  const id = crypto.randomUUID();\n' : '  const id = String(Date.now());\n'}  return NextResponse.json({ id }, { status: 201 });
}
`;

const routeB = `import { NextResponse } from 'next/server';

// Refunds are accepted here and handled by the back office.
export async function POST(request: Request) {
  const refund = await request.json();
  return NextResponse.json({ refund: refund.id }, { status: 202 });
}
`;

const routeBTest = `import { POST } from '../app/api/b/route';

describe('refunds', () => {
  it('accepts a refund', async () => {
    const res = await POST(new Request('http://x/api/b', { method: 'POST', body: '{"id":"r1"}' }));
    expect(res.status).toBe(202);
  });

  it('names the refund it accepted', async () => {
    const res = await POST(new Request('http://x/api/b', { method: 'POST', body: '{"id":"r2"}' }));
    expect((await res.json()).refund).toBe('r2');
  });

  it('accepts a second refund', async () => {
    const res = await POST(new Request('http://x/api/b', { method: 'POST', body: '{"id":"r3"}' }));
    expect(res.ok).toBe(true);
  });
});
`;

const record = (n, title, decision) =>
  `# ${n}. ${title}\n\nDate: 2025-01-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\n${decision.context}\n\n## Decision\n\n${decision.text}\n`;

const RECORDS = {
  'docs/adr/0001-use-react-framework.md': record(1, 'Use React Framework', {
    context: 'The site needs a component model on the client side that can update the page when data changes.',
    text: 'We use React for every page and component; state is kept in hooks and each component renders its own part of the page.',
  }),
  'docs/adr/0002-unit-testing-framework.md': record(2, 'Unit Testing Framework', {
    context:
      'Every module needs tests that run quickly on each change, with a request and a response where it serves one.',
    text: 'We use Jest for unit tests; each test file sits next to the code it tests and is named after it.',
  }),
  'docs/adr/0003-feature-flags.md': record(3, 'Feature Flags', {
    context: 'Some work is released before it is finished, behind a flag that a group of users can see.',
    text: 'Flags are read once per request from the configuration; a key that is deleted turns the flag off.',
  }),
  'docs/adr/0004-validate-orders-at-the-route.md': record(4, 'Validate orders where they arrive', {
    context: 'Invalid orders reached the warehouse because each caller checked them differently.',
    text: 'Orders are validated in `app/api/a/route.ts`, in its `POST` handler, before anything else sees them: an empty order or a negative total is refused with status 400.',
  }),
  'docs/adr/0005-lint-style-sheets-with-stylelint.md': record(5, 'Lint style sheets with Stylelint', {
    context: 'Our SCSS had drifted: three ways to write a colour and nesting ten levels deep.',
    text: 'Every change to the SCSS passes Stylelint with the standard configuration before it is merged.',
  }),
};

const buttons = (shade) => `.button {\n  color: #${shade}${shade}${shade};\n  padding: 4px 8px;\n}\n`;
const theme = (shade) => `$primary: #${shade}${shade}${shade};\n$radius: 2px;\n`;

/** The hundred-odd component files the reformat commit touched. */
const COMPONENTS = 110;
// Components import React as real ones do, so that \`import\` is no rarer a word than it is in an app.
const component = (i, quote) =>
  `import { memo } from ${quote}react${quote};\n\nexport const Widget${i} = memo(function Widget${i}() {\n  return ${quote}widget ${i}${quote};\n});\n`;

/** Creates the repository in `dir` (which must be empty or absent). Returns the commits by name. */
export function makePrecisionRepo(dir, { now = Math.floor(Date.now() / 1000) } = {}) {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  let clock = now - 120 * DAY;
  const git = (...args) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Ana Ruiz', '-c', 'user.email=ana@orders.example', '-c', 'commit.gpgsign=false', ...args],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_DATE: `${clock} +0000`, GIT_COMMITTER_DATE: `${clock} +0000` },
      },
    );
  const write = (files) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  };
  const commits = {};
  const commit = (name, message, files, days) => {
    clock += days * DAY;
    write(files);
    git('add', '-A');
    git('commit', '-q', '-m', message);
    commits[name] = git('rev-parse', 'HEAD').trim();
  };
  git('init', '-q', '-b', 'main');
  const widgets = (quote) =>
    Object.fromEntries(
      Array.from({ length: COMPONENTS }, (_, i) => [`components/Widget${i}.tsx`, component(i, quote)]),
    );
  commit(
    'start',
    'Start the orders site',
    {
      'package.json':
        JSON.stringify({ name: 'orders', private: true, dependencies: { next: '15.0.0', react: '19.0.0' } }, null, 2) +
        '\n',
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, jsx: 'preserve' } }, null, 2) + '\n',
      'app/api/a/route.ts': routeA(0),
      'app/api/b/route.ts': routeB,
      'test/b.test.ts': routeBTest,
      'sass/_buttons.scss': buttons(1),
      'sass/_theme.scss': theme(1),
      ...RECORDS,
      ...widgets("'"),
    },
    0,
  );
  commit('emptyOrder', 'Refuse empty orders', { 'app/api/a/route.ts': routeA(1) }, 10);
  commit('darken', 'Darken the buttons', { 'sass/_buttons.scss': buttons(2), 'sass/_theme.scss': theme(2) }, 5);
  commit('negativeTotal', 'Refuse orders with a negative total', { 'app/api/a/route.ts': routeA(2) }, 10);
  commit('space', 'Space out the buttons', { 'sass/_buttons.scss': buttons(3), 'sass/_theme.scss': theme(3) }, 5);
  commit('uuid', 'Give orders random ids', { 'app/api/a/route.ts': routeA(3) }, 10);
  // A whole-tree reformat: every component and route a, quotes and all; it says nothing about POST.
  commit(
    'bulk',
    'Reformat the whole tree with double quotes',
    { ...widgets('"'), 'app/api/a/route.ts': routeA(3).replaceAll("'", '"') },
    10,
  );
  return commits;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!process.argv[2]) {
    console.error('usage: node test/e2e/precisionFixture.mjs <empty-folder>');
    process.exit(2);
  }
  const commits = makePrecisionRepo(process.argv[2]);
  console.log(JSON.stringify(commits, null, 2));
}
