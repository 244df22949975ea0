import { GENERIC_PACKAGE_PARTS, type FileQuery, type TermSource } from './fileTerms';
import { termsOf } from '../docs/textTerms';

/**
 * What makes a link between a file and a record by their words specific: a word of the record's
 * title that the file is named after, lives in, defines or imports, or several words few files of
 * the workspace use. Words most files share (`update`, `service`, `side`) link a record to all of
 * them, so they are never evidence on their own.
 */
export type EvidenceKind = 'import' | 'folder' | 'name' | 'words';

export interface LinkEvidence {
  kind: EvidenceKind;
  /** The record's words that make it (terms; the linker shows them as the record writes them). */
  words: string[];
  /** The package imported (`import`) or the folder (`folder`), for the reason. */
  where?: string;
  /** Where the file has the word (`name`). */
  source?: TermSource;
  /** Where the record has the word (`name`): in its title, or only in its text (a word of the file's name). */
  inRecord?: 'title' | 'text';
  /** Share of the workspace's files carrying the evidence's most common word (0..1). */
  share?: number;
  /**
   * The import's word names a module inside the package (`deletion` of `django.db.models.deletion`,
   * `client` of `controller-runtime/pkg/client`), not the package itself.
   */
  module?: boolean;
  /** The record writes the word as code (`AppWorkload`): a name of this code, not a word of prose. */
  code?: boolean;
  /** The word is one every codebase names its parts with (`service`, `controller`, `json`). */
  generic?: boolean;
  /** The title word is the project's own subject: many records' titles carry it (`policy`). */
  shared?: boolean;
  /** The record mentions the package imported (`import`) but is not titled by it. */
  mentionOnly?: boolean;
  /** The word is the initials of the file's name (`content_security_policy.rb` ↔ "CSP"): named after in full. */
  acronym?: boolean;
}

/** A title word this share of the records carry is the project's own subject. */
const SHARED_TITLE_SHARE = 0.15;
/** A word carried by at most this share of the workspace's files is rare. */
export const RARE_SHARE = 0.02;
/** Packages are fewer than words: one imported by up to this share of files is still rare. */
const RARE_IMPORT_SHARE = 0.05;
/** A word of the definition at the cursor this rare speaks for it alone. */
const SYMBOL_SHARE = 0.005;
/** A title word the file is named after links it unless this share of files carries it too. */
const NAME_SHARE = 0.25;
/** A title word the definition at the cursor is named after: a little rarer. */
const SYMBOL_NAME_SHARE = 0.2;
/** A title word a name defined in the file carries: rarer still, files define many names. */
const DEFINED_SHARE = 0.045;
/** A word of the file's own name, not of the record's title, that the record speaks of. */
const FILE_WORD_SHARE = 0.03;
/**
 * Words every codebase names its parts with. A file named `user_service.rb` is about users more than
 * about a record that speaks of "service"; such a word tells the one record nearest the file at most.
 */
const GENERIC_CODE_WORDS: ReadonlySet<string> = new Set(
  termsOf(
    'data name file json server service controller repository view test web state handler manager helper ' +
      'util client request response config component module page field record entity store value item api ' +
      'global error database session repositories services controllers files views tests handlers ' +
      'clients pages sessions databases input inputs button buttons load format process application',
  ),
);
/** Title words that say what a record does (`Use X`, `Replace X with Y`), never what a file is about. */
const ACTION_WORDS: ReadonlySet<string> = new Set(
  // Stems, as termsOf gives them.
  [
    'replac',
    'creat',
    'remov',
    'avoid',
    'prefer',
    'handl',
    'send',
    'add',
    'adopt',
    'introduc',
    'mov',
    'switch',
    'separ',
    'reinst',
    'gener',
    'allow',
    'enabl',
    'disabl',
    'support',
    'implement',
    'never',
    'stop',
    'updat',
  ],
);
/**
 * Title words as written, not counting what the record does, of a record about one thing: "Postgres",
 * "Cookiecutter-Django". "Managing Builders" is about more than the `builder` package of
 * controller-runtime.
 */
const SUBJECT_WORDS = 1;
/** "Utilize" and its forms, which start like `util` (short for "utility") but are another word. */
const UTILIZE = /^utili[sz]/;
/** What turns a word into the one who does it: `work` → `worker`, `render` → `renderer`, `edit` → `editor`. */
const AGENT_SUFFIX = /^(?:er|or|r)$/;
/**
 * Folders that hold code whatever it does (`core/`, `common/`, `pkg/`): a record titled by the word is
 * not about each file under them. Stems, as termsOf gives them.
 */
const HOLDER_WORDS: ReadonlySet<string> = new Set(termsOf('src source lib core common shared internal pkg cmd'));
/** Where a file has a word it only defines or writes, not names itself after. */
const WRITTEN: readonly TermSource[] = ['definition', 'comment'];
const WRITTEN_ALL: readonly TermSource[] = ['definition', 'comment', 'text'];
/** Rare words it takes, together, to link a record with no title word in common. */
const RARE_WORDS = 3;
/** Two rare words do when one of them names where the file is. */
const RARE_PAIR = 2;
/** Letters two words of a file share at the start to be one word (`migrate`, `migration`). */
const SAME_WORD_PREFIX = 5;
/** A package imported by more files than this is the stack every file is on (`react` in a React app), not a topic. */
const COMMON_IMPORT_SHARE = 0.5;

export interface EvidenceInput {
  /** The record's terms that matched, strongest first. */
  matched: readonly string[];
  /** The file's word each expanded record term comes from. */
  from: ReadonlyMap<string, string>;
  /** Record terms matched only through the file's plain text. */
  textOnly: ReadonlySet<string>;
  query: FileQuery;
  /** The record's title terms. */
  title: ReadonlySet<string> | undefined;
  /** Words of the record's title as written, but what it does (see subjectWords). */
  subject: number;
  /** The record's terms written as code. */
  code?: ReadonlySet<string>;
  /** Share of the records whose title carries a word (0..1); 0 where too few titles share it to tell. */
  titleShare?: (term: string) => number;
  /** Share of the workspace's files carrying a word (0..1). */
  share: (term: string) => number;
  /** Share of the files of the file's language importing a package that carries the word (0..1). */
  importShare?: (term: string) => number;
  /** The file's path, to name the folder a word comes from. */
  file: string;
}

/** The strongest specific evidence for the link, or undefined when only common words link them. */
export function specificEvidence(input: EvidenceInput): LinkEvidence | undefined {
  const e = findEvidence(input);
  if (e) e.share = Math.max(...e.words.map((t) => input.share(input.from.get(t) ?? t)));
  return e;
}

function findEvidence(input: EvidenceInput): LinkEvidence | undefined {
  const e = evidenceOf(input);
  if (e?.kind === 'name' && GENERIC_CODE_WORDS.has(input.from.get(e.words[0]) ?? e.words[0])) e.generic = true;
  // The project's own subject (`policy` in a fifth of the titles of an access-policy service) tells no record apart.
  if (e?.kind === 'name' && e.inRecord === 'title' && (input.titleShare?.(e.words[0]) ?? 0) >= SHARED_TITLE_SHARE)
    e.shared = true;
  return e;
}

function evidenceOf(input: EvidenceInput): LinkEvidence | undefined {
  const { matched, from, textOnly, query, title, share } = input;
  // `content_security_policy.rb` is named after the "CSP" of a title, wherever the file writes it.
  const acronym = acronymOf(input.file);
  const sourceOf = (t: string): TermSource =>
    t === acronym ? 'name' : textOnly.has(t) ? 'text' : (query.sources.get(from.get(t) ?? t) ?? 'text');
  const shareOf = (t: string) => share(from.get(t) ?? t);
  // The one who does what the file is named after is another word (`work` of `WorkingDayService` →
  // "worker", `build` → "builder").
  const words = matched.filter((t) => !AGENT_SUFFIX.test(t.slice((from.get(t) ?? t).length)));
  // A package word the record only starts with (`conf` of `configuration`) is another word.
  const own = words.filter((t) => t.length - (from.get(t) ?? t).length <= 2);
  // One word alone must be the file's own: `util` is short for "utility", and "utilized" is another word.
  const alone = (t: string) => !UTILIZE.test(t) || UTILIZE.test(from.get(t) ?? t);
  // "Use", "Replace", "Create": what the record does, not what it is about.
  const titled = words.filter((t) => title?.has(t) && !ACTION_WORDS.has(t) && alone(t));
  const pick = (kinds: readonly TermSource[], most = 1) =>
    titled.find((t) => kinds.includes(sourceOf(t)) && shareOf(t) <= most);
  const folder = titled.find((t) => sourceOf(t) === 'folder' && !HOLDER_WORDS.has(from.get(t) ?? t));
  const named = pick(['name', 'type'], NAME_SHARE) ?? pick(['symbol'], SYMBOL_NAME_SHARE);
  // A package the record names: any it is titled after but the stack every file is on, or one few files import.
  // Where the stack is set up (`main.rs`, `settings/production.py`), the record choosing it governs the file.
  const setup = isSetupFile(input.file);
  // A package only the file's other definitions use (its `import` is all this definition shares with it) is theirs.
  const importShare = (t: string) =>
    query.packages?.has(from.get(t) ?? t) && !query.unusedImport?.(from.get(t) ?? t)
      ? setup
        ? shareOf(t)
        : Math.max(shareOf(t), input.importShare?.(from.get(t) ?? t) ?? 0)
      : 1;
  const imported =
    titled.find((t) => own.includes(t) && sourceOf(t) === 'import' && importShare(t) <= COMMON_IMPORT_SHARE) ??
    own.find((t) => sourceOf(t) === 'import' && importShare(t) <= RARE_IMPORT_SHARE && isPackageName(t, from, query));
  if (imported) {
    const w = from.get(imported) ?? imported;
    // A record titled by the module alone ("Postgres", "Translations") is about what the module does.
    const module = !isPackageName(imported, from, query) && input.subject > SUBJECT_WORDS;
    return {
      kind: 'import',
      words: [imported],
      where: query.packages?.get(w),
      ...(title?.has(imported) ? {} : { mentionOnly: true }),
      ...(module ? { module } : {}),
    };
  }
  if (folder) return folderEvidence(input.file, from.get(folder) ?? folder, folder);
  // A word of the definition's own name that almost no file uses (`oel` of `oel_tagging`) names it.
  // In a file the code index does not read (Kotlin), no count says how rare a word of its code is: `send`, `write`
  // and `check` would pass for rare.
  const symbolWord = query.unread
    ? undefined
    : own.find((t) => sourceOf(t) === 'symbol' && t.length >= 3 && shareOf(t) <= SYMBOL_SHARE && alone(t));
  // A rare word of the file's own name the record speaks of (`bulk_unsubscribe_list_service`, "unsubscribe everyone").
  const fileWord = own.find(
    (t) => sourceOf(t) === 'name' && t.length >= 5 && shareOf(t) <= FILE_WORD_SHARE && alone(t),
  );
  // A file that only defines or writes a word every codebase names its parts with (`JsonBody`, `server`)
  // is not about the record titled by it.
  const written = titled.find(
    (t) =>
      (query.textIsContent ? WRITTEN_ALL : WRITTEN).includes(sourceOf(t)) &&
      shareOf(t) <= DEFINED_SHARE &&
      !GENERIC_CODE_WORDS.has(from.get(t) ?? t),
  );
  const word = symbolWord ?? written;
  if (named)
    return {
      kind: 'name',
      words: [named],
      source: sourceOf(named),
      inRecord: 'title',
      ...(named === acronym ? { acronym: true } : {}),
    };
  if (word) {
    const code = word === symbolWord && input.code?.has(word) === true;
    return { kind: 'name', words: [word], source: sourceOf(word), ...(code ? { code } : {}) };
  }
  if (fileWord) {
    const code = input.code?.has(fileWord) === true;
    return { kind: 'name', words: [fileWord], source: sourceOf(fileWord), inRecord: 'text', ...(code ? { code } : {}) };
  }
  return wordsEvidence(input, own, sourceOf, shareOf);
}

/** Several words few files of the workspace use, in the file and the record: the weakest evidence there is. */
function wordsEvidence(
  input: EvidenceInput,
  own: readonly string[],
  sourceOf: (t: string) => TermSource,
  shareOf: (t: string) => number,
): LinkEvidence | undefined {
  const { from, query } = input;
  // Rare words of the file, each once: `post` and the `postgres` it starts are one word of the file, and so are
  // `migrate` and `migration`.
  const rare = new Map<string, string>();
  for (const t of own) {
    const s = sourceOf(t);
    if (!query.textIsContent && (s === 'text' || s === 'comment' || s === 'call')) continue;
    const w = from.get(t) ?? t;
    // Where code lives (`cmd`, `pkg`) is not what it is about.
    if (s === 'call' || HOLDER_WORDS.has(w)) continue;
    const key = w.length >= SAME_WORD_PREFIX ? w.slice(0, SAME_WORD_PREFIX) : w;
    if (!rare.has(key) && shareOf(t) <= (s === 'import' ? RARE_IMPORT_SHARE : RARE_SHARE)) rare.set(key, t);
  }
  const found = [...rare.values()];
  const place = placeWords(input.file);
  // Two rare words meet by chance in a long record ("lifecycle" and "desired"), unless one of them names this
  // code: the definition at the cursor (`isClosed`), the file (`ci.rb`) or a folder of it (`label_indexer/`).
  const placed =
    found.length >= RARE_PAIR && found.some((t) => sourceOf(t) === 'symbol' || place.has(from.get(t) ?? t));
  return found.length >= RARE_WORDS || placed ? { kind: 'words', words: found.slice(0, 3) } : undefined;
}

/** The words of a file's folders, and its name when that is one word: where the file is. */
function placeWords(file: string): Set<string> {
  const parts = file.split('/');
  const out = new Set(parts.slice(0, -1).flatMap((p) => termsOf(p)));
  const own = termsOf(parts[parts.length - 1].split('.')[0]);
  if (own.length === 1) out.add(own[0]);
  return out;
}

/**
 * How many words, as written, a title has besides what the record does: "Postgres" and
 * "Cookiecutter-Django" one, "Managing Builders" two. Numbers ("0006 -") are not words.
 */
export function subjectWords(title: string): number {
  return title
    .split(/\s+/)
    .map((w) => termsOf(w).filter((t) => /[a-z]/.test(t)))
    .filter((ts) => ts.length > 0 && !ts.every((t) => ACTION_WORDS.has(t))).length;
}

/** Names of the files where an application starts or its framework is configured (`app.module.ts` too). */
const SETUP_NAMES =
  /^(?:main|app|application|server|program|startup|bootstrap|settings|production|config|configuration|wsgi|asgi|manage|__init__|__main__)$/i;
/** Folders of settings: every file in them configures the stack. */
const SETUP_FOLDERS = /(?:^|\/)(?:config|settings|configuration)\//i;
/** Folders that only hold a project's code or its parts, and say nothing of how deep a file lies in it. */
const HOLDERS = new Set([
  'src',
  'source',
  'lib',
  'app',
  'apps',
  'packages',
  'services',
  'cmd',
  'main',
  'java',
  'kotlin',
]);

/**
 * A file that starts the application or configures its framework, near the top of its project: the
 * records that chose the framework are about such a file, as they are not about each file using it.
 */
function isSetupFile(file: string): boolean {
  const parts = file.split('/');
  const stem = parts[parts.length - 1].split('.')[0];
  const depth = parts.slice(0, -1).filter((p) => !HOLDERS.has(p.toLowerCase())).length;
  return (SETUP_NAMES.test(stem) && depth <= 2) || SETUP_FOLDERS.test(file);
}

/** Words a file name needs for its initials to be a name of their own (`content_security_policy` → `csp`). */
const ACRONYM_WORDS = 3;

/** The initials of a file's name of three words or more (`content_security_policy.rb` → `csp`), lower case. */
function acronymOf(file: string): string | undefined {
  const base = file.slice(file.lastIndexOf('/') + 1).split('.')[0];
  const words = base
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
  return words.length >= ACRONYM_WORDS ? words.map((w) => w[0].toLowerCase()).join('') : undefined;
}

/** The package's own name (`bullmq`, `rest_framework`), not a word of a path inside it (`storage`, `request`). */
function isPackageName(t: string, from: ReadonlyMap<string, string>, query: FileQuery): boolean {
  const spec = query.packages?.get(from.get(t) ?? t);
  if (!spec) return false;
  const parts = spec.replace(/^@/, '').split(/[/.:]+/);
  // A Go module path starts with a host: the project follows it. A reverse domain is named by its vendor
  // (`org.springframework`): `format` of `org.springframework.format` is one of its modules. A scoped npm
  // package (`@mui/material`) is named by its scope and its name.
  const head =
    parts.length > 2 && /^(?:github|gitlab|bitbucket|golang|google)$/i.test(parts[0])
      ? parts.slice(1, 3)
      : parts.length > 2 && /^(?:org|com|io|net|tools)$/i.test(parts[0])
        ? parts.slice(1, 2)
        : parts.slice(0, spec.startsWith('@') ? 2 : 1);
  return head.some(
    (p, i) =>
      !(i > 0 && GENERIC_PACKAGE_PARTS.has(p.toLowerCase())) &&
      p
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '')
        .startsWith((from.get(t) ?? t).replace(/[^a-z0-9]/g, '')),
  );
}

/** The innermost folder of `file` whose name carries the file's word `term` (the record's `recordTerm`). */
function folderEvidence(file: string, term: string, recordTerm: string): LinkEvidence {
  const parts = file.split('/').slice(0, -1);
  // Terms are stems (`servic`): the folder name starts with all but the stem's last letter or so.
  const stem = term.slice(0, Math.max(3, term.length - 1));
  for (let i = parts.length - 1; i >= 0; i--)
    if (parts[i].toLowerCase().includes(stem))
      return { kind: 'folder', words: [recordTerm], where: parts.slice(0, i + 1).join('/') };
  return { kind: 'folder', words: [recordTerm], where: parts.join('/') };
}
