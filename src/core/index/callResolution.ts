import { all } from '../store/sqlite';
import { CONTAINER_KINDS, FIELD_OF, RESULT_OF, resultSpec, TYPED_RECEIVER } from './facts';
import { FieldTypes } from './fieldTypes';
import { familyOf, languageOf } from './languages';
import { CALL_COLS, CALLS, callRef, lastSegment, type CallRow, type SymbolRow } from './indexRows';
import { methodFamily, type TypeDefinition } from './heritage';
import type { IndexState } from './indexState';
import { implementedDeclaring } from './interfaces';
import { NamePriors } from './namePriors';
import { BoundNames } from './boundDefinitions';
import { GenerationMemo } from './generationMemo';
import type { CallerConfidence, CallerRef } from './indexTypes';
import type {
  Binding,
  CallQuery,
  Family,
  LanguageCalls,
  LanguageResolution,
  TypedCall,
  Verdict,
} from './resolution/query';
import { resultType } from './resolution/results';
import { javascriptResolution } from './resolution/javascript';
import { pythonResolution } from './resolution/python';
import { goResolution } from './resolution/go';
import { javaResolution } from './resolution/java';
import { csharpResolution } from './resolution/csharp';
import { rustResolution } from './resolution/rust';
import { rubyResolution } from './resolution/ruby';
import { phpResolution } from './resolution/php';

/** Each language family answers for its own calls; the walk over bindings below is shared. */
const RESOLUTIONS: Record<Family, LanguageResolution> = {
  js: javascriptResolution,
  python: pythonResolution,
  go: goResolution,
  java: javaResolution,
  csharp: csharpResolution,
  rust: rustResolution,
  ruby: rubyResolution,
  php: phpResolution,
};
const MAX_BINDING_STEPS = 5000;
/** Most bindings of a method's relatives (its bases, interfaces and subclasses) followed for one query. */
const MAX_RELATIVE_BINDINGS = 10_000;
/** Above this many files, the calls of a name are read whole and filtered rather than looked up by path. */
const MANY_FILES = 40;
/** Most bindings kept between queries by each memo (about 100 bytes each). */
const MAX_KEPT_BINDINGS = 100_000;

/** What the walk knows of the definition: how it is named where it is bound. */
interface Target {
  def: SymbolRow;
  isMethod: boolean;
  /** The name its bindings follow: the method's class, the outermost namespace, or the function. */
  bound: string;
  /** For a function in a TypeScript namespace, the rest of its path below the outermost namespace. */
  suffix: string;
}

/** The calls of each callee name, by file. */
type CallsByName = Map<string, Map<string, CallRow[]>>;

/** Where a definition is reached: its bindings (its relatives' marked), its relatives, and the files naming its class. */
interface Reach {
  bindings: readonly Binding[];
  relatives: { names: string[]; definitions: TypeDefinition[] };
  named: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Finds the call sites that reach a definition: where its name is bound (imports, re-exports,
 * namespaces, same package) and which calls in those files name it the way the binding says.
 */
export class CallResolver {
  /** Where each name is bound, and each definition with its relatives: walked once per generation. */
  private readonly bindings = new GenerationMemo<readonly Binding[]>(MAX_KEPT_BINDINGS, (b) => b.length);
  private readonly reaches = new GenerationMemo<Reach>(MAX_KEPT_BINDINGS, (r) => r.bindings.length);
  /** The generation the query being answered started in (nothing writes while it runs: it is synchronous). */
  private current = -1;

  constructor(private readonly state: IndexState) {}

  /**
   * The index's generation (IndexState.generation), with the import graph and the file list every
   * walk reads already in memory: reading them is no change, and would otherwise start one.
   */
  generation(): number {
    this.state.graph();
    this.state.resolver();
    return this.state.generation();
  }

  /**
   * Where a top-level name of `defPath` is reachable, following imports, re-exports (`export … from`,
   * `export *`, `export * as ns`), local aliases and namespace objects, breadth first. Kept while the
   * index stays the same: a method's relatives are asked for again by each method and file.
   */
  private bindingsOf(defPath: string, name: string, isDefault: boolean): readonly Binding[] {
    return this.bindings.get(this.current, `${defPath}\0${name}\0${isDefault ? 1 : 0}`, () =>
      this.walkBindings(defPath, name, isDefault),
    );
  }

  private walkBindings(defPath: string, name: string, isDefault: boolean): Binding[] {
    const out: Binding[] = [{ file: defPath, path: name }];
    const lang = languageOf(defPath);
    const packageDirs = lang && RESOLUTIONS[familyOf(lang)].packageDirs;
    if (packageDirs) {
      // One package (or namespace folder) shares its top-level names without imports.
      const dir = defPath.includes('/') ? defPath.slice(0, defPath.lastIndexOf('/')) : '';
      const ext = defPath.slice(defPath.lastIndexOf('.'));
      const files = this.state.resolver().files;
      for (const d of packageDirs(this.state, dir))
        for (const f of files.inDir(d)) if (f !== defPath && f.endsWith(ext)) out.push({ file: f, path: name });
    }
    const graph = this.state.graph();
    // Each name found, and whether it came through a namespace the file imports (`import * as ns`, `import a.b`).
    const queue: Array<[string, string, boolean]> = [[defPath, name, false]];
    const seen = new PairSet();
    seen.add(defPath, name);
    const reach = (file: string, path: string, binds: boolean, viaNamespace: boolean) => {
      if (!seen.add(file, path)) return;
      if (binds) out.push({ file, path });
      queue.push([file, path, viaNamespace]);
    };
    let steps = 0;
    for (let qi = 0; qi < queue.length && steps < MAX_BINDING_STEPS; qi++) {
      const [file, n, viaNamespace] = queue[qi];
      const dot = n.indexOf('.');
      const head = dot < 0 ? n : n.slice(0, dot);
      const rest = dot < 0 ? '' : n.slice(dot);
      graph.forEachImporter(file, (importer, names) => {
        steps++;
        // Re-exports pass the name on without binding it; imports bind it (and may pass it on again).
        for (const entry of names) {
          const binds = !entry.reexport;
          if (entry.name === head && entry.local !== '*') reach(importer, entry.local + rest, binds, viaNamespace);
          else if (entry.name === 'default' && isDefault && file === defPath && n === name)
            reach(importer, entry.local, binds, viaNamespace);
          else if (entry.name === '*' && entry.local === '*') reach(importer, n, binds, viaNamespace);
          // A member of a namespace a file imports is not reached through a namespace import of that
          // file in turn (`b.a.f`): Python modules that import each other (`import mypy.checker`,
          // `import mypy.checkexpr`) would otherwise grow `mypy.checkexpr.mypy.checker.…` until the
          // step limit, thousands of bindings no code writes. A re-exported namespace still passes it on.
          else if (entry.name === '*' && !(binds && viaNamespace))
            reach(importer, `${entry.local}.${n}`, binds, viaNamespace || binds);
        }
      });
    }
    return out;
  }

  /** Calls that reach one definition, optionally only those inside one file. */
  callsTo(def: SymbolRow, onlyFile?: string): CallerRef[] {
    const family = familyOf(languageOf(def.path) ?? 'typescript');
    const language = RESOLUTIONS[family];
    if (language.callsTo) return language.callsTo(this.state, def, onlyFile);
    const target = targetOf(def);
    const key = `${def.path}\0${def.kind}\0${def.container ?? ''}\0${def.name}\0${def.exported}`;
    this.current = this.generation();
    const reach = this.reaches.get(this.current, key, () => this.reachOf(target, family, language));
    const bindings = onlyFile === undefined ? reach.bindings : reach.bindings.filter((b) => b.file === onlyFile);
    const q = this.openQuery(target, family, language, onlyFile, reach.relatives, reach.named);
    const byName = this.callsNamed(bindings, target);
    if (!target.isMethod) return functionCalls(target, language, bindings, byName);
    return this.methodCalls(q, language, language.open(q), bindings, byName);
  }

  /** Where the definition is bound, and its relatives (for a method) with theirs. */
  private reachOf(target: Target, family: Family, language: LanguageResolution): Reach {
    const { def, isMethod, bound } = target;
    // A TypeScript or PHP method is also called through the bases and interfaces that declare it, and on
    // the classes below them: the language's own notion of its references.
    const langs = language.heritageLangs;
    const relatives =
      isMethod && langs
        ? methodFamily(this.state.db, this.state.heritage(), family, def.container!, def.name, def.path, langs)
        : { names: [], definitions: [] };
    const bindings = [...this.bindingsOf(def.path, bound, def.exported === 2)];
    this.addRelatives(bindings, relatives.definitions);
    // Where the class itself is named: a field declared there with its name is of this very class.
    const named = new Map<string, Set<string>>();
    for (const b of bindings)
      if (!b.relative) named.set(b.file, (named.get(b.file) ?? new Set()).add(lastSegment(isMethod ? b.path : bound)));
    return { bindings, relatives, named };
  }

  /** Adds the bindings of the method's relatives, nearest first, within a budget. */
  private addRelatives(bindings: Binding[], relatives: readonly TypeDefinition[]): void {
    if (!relatives.length) return;
    const seen = new PairSet();
    for (const b of bindings) seen.add(b.file, b.path);
    // A family of a hundred schema types re-exported through one namespace is named in every file,
    // which says nothing about any one call.
    for (let i = 0, added = 0; i < relatives.length && added < MAX_RELATIVE_BINDINGS; i++) {
      const r = relatives[i];
      for (const b of this.bindingsOf(r.path, r.name, r.exported === 2)) {
        if (!seen.add(b.file, b.path)) continue;
        bindings.push({ ...b, relative: true });
        added++;
      }
    }
  }

  /** What every language's rules share while answering one query, with its caches. */
  private openQuery(
    target: Target,
    family: Family,
    language: LanguageResolution,
    onlyFile: string | undefined,
    relatives: { names: string[]; definitions: TypeDefinition[] },
    named: ReadonlyMap<string, ReadonlySet<string>>,
  ): CallQuery {
    const { def, isMethod } = target;
    const state = this.state;
    // Where the method's own class (or Rust impl, whose methods sit in the type's file) spans.
    const classSpans = isMethod
      ? all<{ start_line: number; end_line: number }>(
          state.db,
          `SELECT s.start_line AS start_line, s.end_line AS end_line FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.name = ? AND s.kind IN (${CONTAINER_KINDS.map(() => '?').join(', ')})`,
          [def.path, def.container!, ...CONTAINER_KINDS],
        )
      : [];
    const fields = new FieldTypes(state.db, state.heritage(), language.fields);
    const functionFiles = new Map<string, Set<string>>();
    const results = new Map<string, string | null | undefined>();
    const bindsFunction = (file: string, d: { path: string; name: string; exported: number }) => {
      const key = `${d.path}\0${d.name}`;
      let files = functionFiles.get(key);
      if (!files)
        functionFiles.set(key, (files = new Set(this.bindingsOf(d.path, d.name, d.exported === 2).map((b) => b.file))));
      return files.has(file);
    };
    // Interfaces that declare this method and whose every method the method's type has: a call
    // through one may reach this method.
    let declaring: Set<string> | undefined;
    return {
      state,
      def,
      family,
      onlyFile,
      fields,
      priors: new NamePriors(state.db, fields),
      imported: new BoundNames(state.db, state.graph(), def, relatives.definitions, bindsFunction),
      related: new Set(relatives.names),
      reaches: (file, type) => type === def.container && !!named.get(file)?.has(type),
      insideClass: (c) =>
        c.path === def.path &&
        (!!language.classIsFile || classSpans.some((r) => c.line >= r.start_line && c.line <= r.end_line)),
      interfaces: () =>
        (declaring ??= isMethod
          ? implementedDeclaring(state.db, def.name, def.container!, def.path, fields, family)
          : new Set()),
      resultType: (name) => resultType(state, name, results, family),
      bindsFunction,
      bindingsOf: (path, name, isDefault) => this.bindingsOf(path, name, isDefault),
    };
  }

  /** Each binding names the callee it expects in one file; fetch only those calls, once per name and file. */
  private callsNamed(bindings: readonly Binding[], target: Target): CallsByName {
    const wanted = new Map<string, Set<string>>();
    for (const b of bindings) {
      const f = fullName(target, b);
      const callee = f.slice(f.lastIndexOf('.') + 1);
      let files = wanted.get(callee);
      if (!files) wanted.set(callee, (files = new Set()));
      files.add(b.file);
    }
    const byName: CallsByName = new Map();
    for (const [callee, fileSet] of wanted) {
      const byFile = new Map<string, CallRow[]>();
      const files = [...fileSet];
      // Many files: one pass over the calls of that name costs less than matching a long list of paths.
      const chunks: Array<string[] | undefined> = [];
      if (files.length > MANY_FILES) chunks.push(undefined);
      else for (let i = 0; i < files.length; i += 500) chunks.push(files.slice(i, i + 500));
      for (const chunk of chunks) {
        const rows = chunk
          ? all<CallRow>(
              this.state.db,
              `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND f.path IN (${chunk.map(() => '?').join(',')})`,
              [callee, ...chunk],
            )
          : all<CallRow>(this.state.db, `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ?`, [callee]);
        for (const r of rows) {
          if (!chunk && !fileSet.has(r.path)) continue;
          let list = byFile.get(r.path);
          if (!list) byFile.set(r.path, (list = []));
          list.push(r);
        }
      }
      byName.set(callee, byFile);
    }
    return byName;
  }

  /** A method's calls in the files that bind its class or a relative, then those its language finds elsewhere. */
  private methodCalls(
    q: CallQuery,
    language: LanguageResolution,
    calls: LanguageCalls,
    bindings: readonly Binding[],
    byName: CallsByName,
  ): CallerRef[] {
    const out: CallerRef[] = [];
    // Each file's bindings name the class (`own`) or one of its relatives; its calls are read once.
    const namesIn = new Map<string, { own: Set<string>; rel: Set<string> }>();
    for (const b of bindings) {
      let names = namesIn.get(b.file);
      if (!names) namesIn.set(b.file, (names = { own: new Set(), rel: new Set() }));
      (b.relative ? names.rel : names.own).add(b.path);
    }
    const calledIn = byName.get(q.def.name);
    const graph = this.state.graph();
    for (const [file, { own, rel }] of namesIn) {
      const fileCalls = calledIn?.get(file);
      if (!fileCalls) continue;
      // The class or one of its instances, or a relative's, is what the method is called on.
      const moduleNames = graph.moduleNames(file);
      // A file that names only relatives calls the method through one of them.
      const through = own.size ? undefined : lastSegment(rel.values().next().value!);
      for (const c of fileCalls) {
        const verdict = judgeCall(q, language, calls, c, own, rel, moduleNames);
        const via = verdict.via ?? through;
        const confidence = verdict.confidence;
        if (confidence === 'likely' && via) out.push({ ...callRef(c), confidence, via });
        else if (confidence) out.push({ ...callRef(c), confidence });
      }
    }
    calls.moreCalls?.(out);
    return out;
  }
}

/** Pairs of a file and a name in it, kept without building a key string for each (a walk adds tens of thousands). */
class PairSet {
  private readonly byFile = new Map<string, Set<string>>();

  /** Adds the pair; false when it was there already. */
  add(file: string, path: string): boolean {
    let paths = this.byFile.get(file);
    if (!paths) this.byFile.set(file, (paths = new Set()));
    else if (paths.has(path)) return false;
    paths.add(path);
    return true;
  }
}

function targetOf(def: SymbolRow): Target {
  const isMethod = def.kind === 'method' && !!def.container;
  // A function in a TypeScript namespace is bound through the outermost namespace: `A.B.f`.
  const nsPath = !isMethod && def.container ? def.container.split('.') : [];
  const bound = isMethod ? def.container! : nsPath.length ? nsPath[0] : def.name;
  const suffix = nsPath.length ? [...nsPath.slice(1), def.name].join('.') : '';
  return { def, isMethod, bound, suffix };
}

/** The expression a binding expects the callee to be called as. */
function fullName(t: Target, b: Binding): string {
  return t.isMethod ? `${b.path}.${t.def.name}` : t.suffix ? `${b.path}.${t.suffix}` : b.path;
}

/** A function's calls: those qualified the way its bindings name it. */
function functionCalls(
  target: Target,
  language: LanguageResolution,
  bindings: readonly Binding[],
  byName: CallsByName,
): CallerRef[] {
  const out: CallerRef[] = [];
  for (const b of bindings) {
    const f = fullName(target, b);
    const at = f.lastIndexOf('.');
    const calls = byName.get(f.slice(at + 1))?.get(b.file);
    if (!calls) continue;
    const qualifier = at < 0 ? null : f.slice(0, at);
    for (const c of calls) {
      const q = c.qualifier === null ? null : c.qualifier.replace(/::/g, '.');
      const match =
        q === qualifier ||
        (!!language.looseQualifier && q !== null && qualifier !== null && lastSegment(q) === lastSegment(qualifier)) ||
        // Inside the namespace's own file its members are called unqualified.
        (target.suffix !== '' && q === null && b.file === target.def.path);
      if (match) out.push({ ...callRef(c), confidence: 'resolved' });
    }
  }
  return out;
}

/** Whether one call in a file that binds the class (or a relative) reaches the method, and how surely. */
function judgeCall(
  q: CallQuery,
  language: LanguageResolution,
  calls: LanguageCalls,
  c: CallRow,
  own: ReadonlySet<string>,
  rel: ReadonlySet<string>,
  moduleNames: ReadonlySet<string> | undefined,
): Verdict {
  const qual = c.qualifier === null ? null : c.qualifier.replace(/::/g, '.');
  if (qual === null) return verdict(language.implicitThis && q.insideClass(c) ? 'resolved' : undefined);
  if (qual.startsWith(TYPED_RECEIVER)) return judgeTyped(q, calls, c, qual.slice(TYPED_RECEIVER.length), own, rel);
  if (own.has(qual)) return verdict('resolved');
  if (rel.has(qual)) return { confidence: 'likely', via: lastSegment(qual) };
  // `z.max()` with `import * as z`: a module's function, not a method of an instance.
  if (moduleNames?.has(qual)) return verdict(undefined);
  // `super.m()` inside the class calls its base's m, never its own.
  if (qual === language.superReceiver) return verdict(q.insideClass(c) ? undefined : 'likely');
  // `this.m()` inside the class itself; elsewhere (another class, a subclass) it may be another m.
  if (language.selfReceivers.has(qual))
    return verdict(q.insideClass(c) ? 'resolved' : (calls.selfElsewhere?.(c) ?? true) ? 'likely' : undefined);
  return calls.untypedReceiver?.(c, qual, moduleNames) ?? verdict('likely');
}

/**
 * A call on a receiver whose declaration names its type: this type's method; through an interface
 * that has the method, perhaps this one; another type's method, not this one.
 */
function judgeTyped(
  q: CallQuery,
  calls: LanguageCalls,
  c: CallRow,
  declared: string,
  own: ReadonlySet<string>,
  rel: ReadonlySet<string>,
): Verdict {
  const { fields, def, related } = q;
  // A field's type is written as the file declaring the field sees it.
  const chain = declared.startsWith(FIELD_OF) ? declared.slice(FIELD_OF.length) : undefined;
  const field = chain && !fields.ownerFromLibrary(c.path, chain) ? fields.typeOf(chain, c.path) : undefined;
  const isResult = declared.startsWith(RESULT_OF);
  const ownResult = isResult && !!calls.readResult;
  const result = ownResult ? calls.readResult!(declared.slice(RESULT_OF.length), c) : undefined;
  const spec = !ownResult && isResult ? resultSpec(declared.slice(RESULT_OF.length)) : undefined;
  const type = result
    ? result.type
    : spec
      ? q.resultType(spec.producer)
      : declared.startsWith(FIELD_OF)
        ? field?.type
        : declared;
  const t: TypedCall = { c, declared, chain, field, spec, ownResult, resultPath: result?.path, type, own, rel };
  if (type === null || type === undefined) return calls.unknownType(t);
  // A declared type is written as this file sees it (`mux.Route`); a result type as its definition's file does.
  if (
    field
      ? q.reaches(field.path, lastSegment(type))
      : own.has(type) || (type !== declared && lastSegment(type) === def.container)
  )
    return verdict('resolved');
  if (calls.foreignType?.(t)) return verdict(undefined);
  if (rel.has(type) || related.has(lastSegment(type))) return { confidence: 'likely', via: lastSegment(type) };
  return calls.otherType(t);
}

function verdict(confidence: CallerConfidence | undefined): Verdict {
  return { confidence };
}
