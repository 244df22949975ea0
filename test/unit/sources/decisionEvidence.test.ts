import { strict as assert } from 'node:assert';
import { decisionWorkspace } from './decisionWorkspace';

/** A record in the front-matter style: only a title and prose. */
const record = (title: string, body: string) =>
  `---\ntitle: "${title}"\n---\n\n## Background\n\n${body}\n\n## Decision\n\n${body}\n`;

/** Forty widgets; half of them keep a selection and say so in the words every UI file uses. */
function widgets(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    files[`src/widgets/widget${i}.ts`] =
      i % 2 === 0
        ? `/** Keeps the selected side; mostly side effects. */\nexport function updateSelectedSide${i}(side: string, selected: boolean): string {\n  return selected ? side : 'none${i}';\n}\n`
        : `export function render${i}(label: string): string {\n  return label + '${i}';\n}\n`;
  return files;
}

describe('decision records need specific evidence', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(
    () => ({
      ...widgets(40),
      'src/billing/invoiceNumbers.ts':
        'export function nextInvoiceNumber(last: number): number {\n  return last + 1;\n}\n',
      'src/flags/featureFlags.ts': 'export function isFlagEnabled(flag: string): boolean {\n  return flag !== "";\n}\n',
      'docs/adr/0001-feature-flags.md': record(
        'Feature flags',
        'Flags are read on the server side. When the selected variant changes, the update of the selected side is pushed; ' +
          'the side effects of an update stay on the side that selected it. Every update of a selected side is logged.',
      ),
      'docs/adr/0002-invoice-numbering.md': record(
        'Invoice numbering',
        'Invoice numbers are sequential per year and never reused, so that the tax office can audit them.',
      ),
    }),
    3,
  );

  it('never links a record through words most files share (side, selected, update)', () => {
    const shown = decisions('src/widgets/widget4.ts', 'updateSelectedSide4', 2);
    assert.deepEqual(
      shown.map((i) => `${i.location.path}: ${i.reason}`),
      [],
    );
  });

  it('links a record by the word of its title the file is named after, and says so', () => {
    const shown = decisions('src/billing/invoiceNumbers.ts');
    const invoice = shown.find((i) => i.location.path === 'docs/adr/0002-invoice-numbering.md');
    assert.ok(invoice, JSON.stringify(shown.map((i) => i.location.path)));
    assert.match(invoice.reason, /^ADR 0002 is about [Ii]nvoice, which this file is named after$/);
    assert.doesNotMatch(invoice.reason, /talks about/);
    const flags = decisions('src/flags/featureFlags.ts');
    assert.deepEqual(
      flags.map((i) => i.location.path),
      ['docs/adr/0001-feature-flags.md'],
    );
  });
});

describe('files the code index does not read', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(() => {
    const files: Record<string, string> = {
      'docs/adr/0001-lint-scss.md':
        '# 1. Lint SCSS with Stylelint\n\n## Status\n\nAccepted\n\n## Decision\n\nEvery SCSS file is linted by Stylelint with the standard config; no inline styles.\n',
      'docs/adr/0002-use-postgres.md':
        '# 2. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nData lives in Postgres.\n',
      'assets/_buttons.scss': '.button {\n  color: $primary;\n  padding: 4px 8px;\n}\n',
    };
    for (let i = 0; i < 24; i++) files[`src/part${i}.ts`] = `export const part${i} = ${i};\n`;
    return files;
  });

  it('links a style sheet to the record about its file type, and says so', () => {
    const shown = decisions('assets/_buttons.scss');
    assert.deepEqual(
      shown.map((i) => i.location.path),
      ['docs/adr/0001-lint-scss.md'],
    );
    // Named by the file's type, whichever link finds it first: the linker's words or the file-kind link.
    assert.match(shown[0].reason, /^ADR 0001 is about scss\b/i);
  });
});
