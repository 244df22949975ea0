import { Language, Parser } from '@vscode/tree-sitter-wasm';
import { locateAsset } from '../paths';

export type LangId =
  'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'java' | 'rust' | 'csharp' | 'ruby' | 'php';

const GRAMMAR_FILE: Record<LangId, string> = {
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  python: 'tree-sitter-python.wasm',
  go: 'tree-sitter-go.wasm',
  java: 'tree-sitter-java.wasm',
  rust: 'tree-sitter-rust.wasm',
  csharp: 'tree-sitter-c-sharp.wasm',
  ruby: 'tree-sitter-ruby.wasm',
  php: 'tree-sitter-php.wasm',
};

const BY_EXTENSION: Record<string, LangId> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  java: 'java',
  rs: 'rust',
  cs: 'csharp',
  rb: 'ruby',
  rake: 'ruby',
  php: 'php',
};

/** The language of a path by its extension, or undefined when it is not indexed. */
export function languageOf(path: string): LangId | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return BY_EXTENSION[path.slice(dot + 1).toLowerCase()];
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
    const file = GRAMMAR_FILE[lang];
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
