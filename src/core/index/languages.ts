import { Language, Parser } from '@vscode/tree-sitter-wasm';
import { locateAsset } from '../paths';
import table from './languages.json';

/**
 * The indexed languages: grammar, file extensions and the editor's language ids. One table, read by
 * the index, by the editor's activity tracker (through the core's door) and by the build, which
 * copies exactly these grammars next to the bundle.
 */
const TABLE: Readonly<Record<LangId, { grammar: string; extensions: string[]; editorIds: string[] }>> = table;

export type LangId = keyof typeof table;

const BY_EXTENSION: ReadonlyMap<string, LangId> = new Map(
  (Object.keys(TABLE) as LangId[]).flatMap((lang) => TABLE[lang].extensions.map((ext) => [ext, lang] as const)),
);

const EDITOR_IDS: ReadonlySet<string> = new Set(Object.values(TABLE).flatMap((l) => l.editorIds));

/** Whether the code index parses documents of an editor language id ("typescriptreact", "python"). */
export function isIndexedEditorLanguage(languageId: string): boolean {
  return EDITOR_IDS.has(languageId);
}

/** The language of a path by its extension, or undefined when it is not indexed. */
export function languageOf(path: string): LangId | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return BY_EXTENSION.get(path.slice(dot + 1).toLowerCase());
}

/** The family used to pick extraction and resolution rules. */
export function familyOf(lang: LangId): 'js' | 'python' | 'go' | 'java' | 'rust' | 'csharp' | 'ruby' | 'php' {
  return lang === 'typescript' || lang === 'tsx' || lang === 'javascript' ? 'js' : lang;
}

let runtime: Promise<void> | undefined;
const languages = new Map<LangId, Promise<Language>>();
const parsers = new Map<LangId, Parser>();

function initRuntime(): Promise<void> {
  if (!runtime) {
    const wasm = locateAsset('tree-sitter.wasm', '@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm');
    runtime = Parser.init({ locateFile: () => wasm }).catch((err) => {
      runtime = undefined;
      throw err;
    });
  }
  return runtime;
}

function loadLanguage(lang: LangId): Promise<Language> {
  let p = languages.get(lang);
  if (!p) {
    const file = TABLE[lang].grammar;
    p = initRuntime()
      .then(() => Language.load(locateAsset(file, `@vscode/tree-sitter-wasm/wasm/${file}`)))
      .catch((err) => {
        languages.delete(lang);
        throw err;
      });
    languages.set(lang, p);
  }
  return p;
}

/** One parser per language for the whole process; parsing is synchronous so sharing is safe. */
export async function parserFor(lang: LangId): Promise<Parser> {
  const existing = parsers.get(lang);
  if (existing) return existing;
  const language = await loadLanguage(lang);
  let parser = parsers.get(lang);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers.set(lang, parser);
  }
  return parser;
}
