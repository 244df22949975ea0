import type { Language, Tree } from '@vscode/tree-sitter-wasm';
import type { ExtractionContext, ExtractionRules, Visitor } from './extractors/context';
import { csharpRules } from './extractors/csharp';
import { goRules } from './extractors/go';
import { javaRules } from './extractors/java';
import { javascriptRules } from './extractors/javascript';
import { pythonRules } from './extractors/python';
import { rustRules } from './extractors/rust';
import type { FileFacts } from './facts';
import { familyOf, type LangId } from './languages';

type Family = ReturnType<typeof familyOf>;

const RULES: Record<Family, ExtractionRules> = {
  js: javascriptRules,
  python: pythonRules,
  go: goRules,
  java: javaRules,
  csharp: csharpRules,
  rust: rustRules,
};

const byLanguage = new WeakMap<Language, Visitor[]>();

/** Visitors indexed by node type id: the walk then reads one number per node instead of a string. */
function visitorsById(language: Language, family: Family): Visitor[] {
  let table = byLanguage.get(language);
  if (!table) {
    const named = RULES[family].visitors;
    table = language.types.map((type) => (Object.prototype.hasOwnProperty.call(named, type) ? named[type] : undefined)) as Visitor[];
    byLanguage.set(language, table);
  }
  return table;
}

/** Definitions, call sites and imports of one parsed file, by a single cursor walk over the tree. */
export function extractFacts(lang: LangId, tree: Tree): FileFacts {
  const family = familyOf(lang);
  const visitors = visitorsById(tree.language, family);
  const ctx: ExtractionContext = { facts: { symbols: [], calls: [], imports: [] }, frames: [], depth: 0 };
  const cursor = tree.walk();
  try {
    for (;;) {
      while (ctx.frames.length && ctx.frames[ctx.frames.length - 1].depth >= ctx.depth) ctx.frames.pop();
      const visit = visitors[cursor.nodeTypeId];
      if (visit) {
        const frame = visit(cursor.currentNode, ctx);
        if (frame) ctx.frames.push(frame);
      }
      if (cursor.gotoFirstChild()) {
        ctx.depth++;
        continue;
      }
      let moved = false;
      while (!moved) {
        if (cursor.gotoNextSibling()) moved = true;
        else if (cursor.gotoParent()) ctx.depth--;
        else break;
      }
      if (!moved) break;
    }
  } finally {
    cursor.delete();
  }
  RULES[family].finish?.(ctx);
  return ctx.facts;
}
