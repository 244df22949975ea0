import type { DocSection } from './docSections';

/* What makes a doc section's mention of a file specific to that file, and what does not. */

/** A section that names at least this many paths lists the code (a "Key files" table, a layout tree). */
const LISTING_PATHS = 8;

/**
 * A section that writes at least this many compound type names is an overview of how parts fit
 * together (a flow diagram, a glossary, a table of plugins): it names each one in passing.
 */
const OVERVIEW_TYPE_NAMES = 5;

/** A section naming this many paths, with few words beside each, is a list of files ("Source", "Key files"). */
const FILE_LIST_PATHS = 3;
/** Words per path, the paths' own words included, up to which a section only lists its files. */
const FILE_LIST_WORDS = 12;

/** A listing or an overview names each file or type in passing: it is about none of them in particular. */
export function isListing(s: DocSection): boolean {
  return (
    s.paths.length >= LISTING_PATHS ||
    s.typeNames >= OVERVIEW_TYPE_NAMES ||
    (s.paths.length >= FILE_LIST_PATHS && s.bodyTerms.length <= s.paths.length * FILE_LIST_WORDS)
  );
}

/**
 * A section that names two folders or more maps the layout (a tree, a list of the projects): a
 * folder mention there is a stop on a tour, not a word about that folder's code.
 */
export function isLayoutTour(s: DocSection): boolean {
  let folders = 0;
  for (const p of s.paths) if (p.endsWith('/') && ++folders >= 2) return true;
  return false;
}

/** Folders that hold a project's code or tests as a whole, whatever it is about. */
const CODE_ROOTS = new Set([
  'src',
  'source',
  'sources',
  'lib',
  'app',
  'pkg',
  'internal',
  'cmd',
  'bin',
  'test',
  'tests',
  'spec',
  'specs',
]);

/** A mention of one folder that holds code as a whole: `src/`, `./lib/` (but `core/` is about something). */
export function isGenericFolder(mention: string): boolean {
  const name = mention.replace(/^\.\//, '').slice(0, -1);
  return !name.includes('/') && CODE_ROOTS.has(name.toLowerCase());
}

/** Folders that hold a part's documentation rather than being the part. */
const DOC_FOLDER = /^(?:docs?|documentation)$/i;

/**
 * The folder a document is about: its own, or for a page under a `docs/` folder the folder that
 * holds it (`extension/docs/Refund.md` is about `extension/`). '' for the whole workspace.
 */
export function documentHome(docPath: string): string {
  const parts = docPath.split('/').slice(0, -1);
  const docs = parts.findIndex((p) => DOC_FOLDER.test(p));
  return (docs < 0 ? parts : parts.slice(0, docs)).join('/');
}

/**
 * Whether a document speaks for the part that holds this file. The README of another component
 * (`services/mock-api/README.md` for a file of `services/referral/`) has its own "Run" section, its own
 * "Production" notes, its own `django`: the same words there are about that component.
 */
export function isHomeOf(docPath: string, file: string): boolean {
  const home = documentHome(docPath);
  return home === '' || (file.length > home.length && file.startsWith(home) && file.charCodeAt(home.length) === 47);
}

/**
 * Data, configuration and dependency files, whose keys are the format's words and whose entries
 * are package names: `workspaces` in package.json, `services` in a compose file, `django` in
 * requirements.txt or `requirements/base.txt`. A section that names one talks about something else of that name.
 */
const DATA_FILE =
  /\.(?:json|jsonc|ya?ml|toml|ini|properties|xml|gradle|gradle\.kts|csproj|fsproj)$|(?:^|\/)(?:requirements[^/]*\.txt|constraints[^/]*\.txt|Pipfile|Gemfile|go\.mod|go\.sum)$|(?:^|\/)requirements\/[^/]+\.(?:txt|in)$/i;

export function isDataFile(path: string): boolean {
  return DATA_FILE.test(path);
}
