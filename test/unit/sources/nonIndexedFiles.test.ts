import { strict as assert } from 'node:assert';
import type { ContextSuggestion } from '../../../src/core/types';
import { openRefreshed, type RepoService } from '../api/serviceFixture';
import { TempRepo } from '../git/repoFixture';

const REACT =
  '# 1. Use React Framework\n\n## Status\n\nAccepted\n\n## Decision\n\nWe build every page of the user interface ' +
  'with React components: buttons, forms, layouts and themes are components, and their state lives in hooks.\n';
const STYLELINT =
  '# 2. Lint style sheets with Stylelint\n\n## Status\n\nAccepted\n\n## Decision\n\nEvery change to our ' +
  'SCSS passes Stylelint with the standard configuration before it is merged.\n';

/** A style sheet of the folder every button change goes through. */
const buttons = (shade: number) => `.button {\n  color: #${shade}${shade}${shade};\n  padding: 4px;\n}\n`;
const theme = (shade: number) => `$primary: #${shade}${shade}${shade};\n$radius: 2px;\n`;

/**
 * Files the code index does not parse (here style sheets) get what git and text give: the record
 * about their kind of file, their own commits (older than the recent window too) and the files that
 * change with them, which are not parsed either.
 */
describe('a file the code index does not parse', function () {
  this.timeout(60000);
  let ws: RepoService;

  before(async () => {
    const repo = new TempRepo(true, 'pc-unparsed-', Math.floor(Date.now() / 1000) - 200 * 86400);
    repo.commit('Start the site', {
      'docs/adr/0001-use-react-framework.md': REACT,
      'docs/adr/0002-lint-style-sheets-with-stylelint.md': STYLELINT,
      'src/app.tsx': 'export function App() {\n  return null;\n}\n',
      'sass/_buttons.scss': buttons(1),
      'sass/_theme.scss': theme(1),
      'styles/print/page.scss': '@media print {\n  body {\n    margin: 0;\n  }\n}\n',
    });
    repo.commit('Darken the buttons', { 'sass/_buttons.scss': buttons(2), 'sass/_theme.scss': theme(2) }, 3);
    repo.commit('Space out the buttons', { 'sass/_buttons.scss': buttons(3), 'sass/_theme.scss': theme(3) }, 3);
    // Months of other work since: the style sheets' commits are all older than the recent window.
    for (let i = 1; i <= 4; i++)
      repo.commit(`App work ${i}`, { 'src/app.tsx': `export function App() {\n  return ${i};\n}\n` }, 20);
    ws = await openRefreshed(repo);
  });

  after(() => ws.dispose());

  const titles = (s: ContextSuggestion, type: string) => s.items.filter((i) => i.type === type).map((i) => i.title);

  it('gets the record about its kind of file, its own commits and the file that changes with it', async () => {
    const s = await ws.service.suggestions.suggestForPath({ file: 'sass/_buttons.scss' });
    const stylelint = s.items.find((i) => i.type === 'decision' && /Stylelint/.test(i.title));
    assert.ok(stylelint, `no Stylelint record among ${JSON.stringify(titles(s, 'decision'))}`);
    assert.match(stylelint.reason, /Stylelint.*style sheets/);
    assert.deepEqual(
      titles(s, 'change').slice(0, 2),
      ['Space out the buttons', 'Darken the buttons'],
      'its own commits, though older than the recent window',
    );
    assert.ok(
      s.items.some((i) => i.type === 'cochange' && i.location.path === 'sass/_theme.scss'),
      `no co-change partner among ${JSON.stringify(titles(s, 'cochange'))}`,
    );
    assert.ok(!titles(s, 'decision').some((t) => /React/.test(t)), JSON.stringify(titles(s, 'decision')));
  });

  it('does not get a record about something else, wherever it is', async () => {
    const s = await ws.service.suggestions.suggestForPath({ file: 'styles/print/page.scss' });
    assert.ok(!titles(s, 'decision').some((t) => /React/.test(t)), JSON.stringify(titles(s, 'decision')));
    assert.ok(
      !s.items.some((i) => i.type === 'change' && i.location.path !== 'styles/print/page.scss'),
      'a commit of another file',
    );
  });
});
