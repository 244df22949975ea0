import type { Language, Tree } from '@vscode/tree-sitter-wasm';
import type { ExtractionContext, ExtractionRules, Visitor } from './extractors/context';
import { csharpRules } from './extractors/csharp';
import { goRules } from './extractors/go';
import { javaRules } from './extractors/java';
import { javascriptRules } from './extractors/javascript';
import { phpRules } from './extractors/php';
import { pythonRules } from './extractors/python';
import { rubyRules } from './extractors/ruby';
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
  ruby: rubyRules,
  php: phpRules,
};

const byLanguage = new WeakMap<Language, Visitor[]>();

/** Visitors indexed by node type id: the walk then reads one number per node instead of a string. */
function visitorsById(language: Language, family: Family): Visitor[] {
  let table = byLanguage.get(language);
  if (!table) {
    const named = RULES[family].visitors;
    table = language.types.map((type) =>
      Object.prototype.hasOwnProperty.call(named, type) ? named[type] : undefined,
    ) as Visitor[];
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
  return detachStrings(ctx.facts);
}

/**
 * A node's text is a slice of the file's source, and a slice of 13 characters or more keeps the whole
 * source alive in V8. Facts outlive the parse (import graph, resolver caches, calls held back during a
 * build), so each such string is copied out once here.
 */
function detachStrings(facts: FileFacts): FileFacts {
  for (const s of facts.symbols) {
    s.name = detach(s.name);
    if (s.container) s.container = detach(s.container);
    if (s.supers) s.supers = s.supers.map(detach);
    if (s.returns) s.returns = detach(s.returns);
    if (s.fields) {
      const fields = Object.create(null) as Record<string, string>;
      for (const [k, t] of Object.entries(s.fields)) fields[detach(k)] = detach(t);
      s.fields = fields;
    }
  }
  for (const c of facts.calls) {
    c.name = detach(c.name);
    if (c.qualifier) c.qualifier = detach(c.qualifier);
    if (c.enclosing) c.enclosing = detach(c.enclosing);
  }
  for (const i of facts.imports) {
    i.spec = detach(i.spec);
    for (const n of i.names) {
      n.name = detach(n.name);
      n.local = detach(n.local);
    }
  }
  if (facts.pkg) facts.pkg = detach(facts.pkg);
  if (facts.typedNames) facts.typedNames = facts.typedNames.map(([n, t]) => [detach(n), detach(t)]);
  return facts;
}

/** A flat copy: concatenating makes a new string that no longer points into the source. */
function detach(s: string): string {
  return s.length < 13 ? s : (s + ' ').slice(0, -1);
}
