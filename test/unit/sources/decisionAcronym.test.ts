import { strict as assert } from 'node:assert';
import { decisionWorkspace } from './decisionWorkspace';

/** A Nygard record: a title and prose. */
const record = (n: number, title: string, body: string) =>
  `# ${n}. ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;

/** Files that say nothing any record speaks of, so that the workspace's words have their usual shares. */
function filler(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    files[`app/src/parts/part${i}.ts`] =
      `export function part${i}(label: string): string {\n  return label + '${i}';\n}\n`;
  return files;
}

describe('decision records named by the initials of a file name', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(() => ({
    ...filler(160),
    // `content_security_policy.ts` is named after the "CSP" of a title.
    'app/src/config/content_security_policy.ts':
      'export function policy(): string[] {\n  return cspSources();\n}\nfunction cspSources(): string[] {\n  return ["self"];\n}\n',
    'docs/adr/0007-csp-script-tags.md': record(
      7,
      'CSP compliant script tags',
      'Inline scripts carry a nonce; the CSP allows no other inline script.',
    ),
  }));

  it("takes the initials of a file's name as its name (content_security_policy, CSP)", () => {
    const items = decisions('app/src/config/content_security_policy.ts', 'policy', 1);
    assert.deepEqual(
      items.map((i) => i.location.path),
      ['docs/adr/0007-csp-script-tags.md'],
    );
    // The file defines a `csp…` name too, but what it is named after is the stronger evidence.
    assert.match(items[0].reason, /about csp, which this file is named after/i);
  });
});
