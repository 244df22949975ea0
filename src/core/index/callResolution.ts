import { all, one } from '../store/sqlite';
import { CONTAINER_KINDS, ELEMENTS, FIELD_OF, METHOD_OF, RESULT_OF, resultSpec, TYPED_RECEIVER } from './facts';
import { callsOnFields, FieldTypes } from './fieldTypes';
import { familyOf, languageOf } from './languages';
import { CALL_COLS, CALLS, callRef, lastSegment, type CallRow, type SymbolRow } from './indexRows';
import { pyCallsOnResults, pyModuleExists, pyOtherClass } from './pythonClasses';
import { basesOf, familyHolder, methodFamily } from './heritage';
import {
  BUILTIN_RESULTS,
  JS_GLOBAL_OBJECTS,
  JS_PRIMITIVE_TYPES,
  namesOneOf,
  PLATFORM_METHODS,
  PY_BUILTIN_METHODS,
} from './methodNames';
import type { IndexState } from './indexState';
import { samePackageElsewhere } from './resolve';
import { implementedDeclaring } from './interfaces';
import { callsByNamePrior, NamePriors } from './namePriors';
import { rubyCallsTo } from './rubyCallers';
import { callsOnResults, phpOwnedResult } from './resultCalls';
import { BoundNames, NOT_BOUND, type BoundResult } from './boundDefinitions';
import type { CallerConfidence, CallerRef } from './indexTypes';

/** In `file`, the definition is reachable as the expression `path` (`sum`, `m.add`, `z.core.toDotPath`). */
interface Binding {
  file: string;
  path: string;
  /** A base, interface or subtype of the method's class that `path` names: calls through it are likely. */
  relative?: boolean;
}

const SELF_RECEIVERS = new Set(['this', 'self', 'Self', 'super', 'base']);
/** The receiver that reaches the base class's method, by language: `super.m()`, C#'s `base.M()`. */
const SUPER_RECEIVER: Partial<Record<ReturnType<typeof familyOf>, string>> = {
  js: 'super',
  java: 'super',
  csharp: 'base',
  python: 'super',
};
const MAX_BINDING_STEPS = 5000;
/** Most bindings of a method's relatives (its bases, interfaces and subclasses) followed for one query. */
const MAX_RELATIVE_BINDINGS = 10_000;

/**
 * Finds the call sites that reach a definition: where its name is bound (imports, re-exports,
 * namespaces, same package) and which calls in those files name it the way the binding says.
 */
/** Most calls of a distinctive method name looked at. */
const MAX_DISTINCT_CALLS = 2000;
/** Above this many files, the calls of a name are read whole and filtered rather than looked up by path. */
const MANY_FILES = 40;
const JS_LANGS = "('typescript', 'tsx', 'javascript')";
/** The languages whose classes follow `extends` and `implements` for callers, as SQL lists. */
const HERITAGE_LANGS: Partial<Record<ReturnType<typeof familyOf>, string>> = {
  js: JS_LANGS,
  php: "('php')",
  python: "('python')",
};

export class CallResolver {
  constructor(private readonly state: IndexState) {}

  /**
   * Where a top-level name of `defPath` is reachable, following imports, re-exports (`export … from`,
   * `export *`, `export * as ns`), local aliases and namespace objects, breadth first.
   */
  private bindingsOf(defPath: string, name: string, isDefault: boolean): Binding[] {
    const out: Binding[] = [{ file: defPath, path: name }];
    const lang = languageOf(defPath);
    const family = lang && familyOf(lang);
    if (family === 'go' || family === 'java' || family === 'csharp' || family === 'php') {
      // One package (or namespace folder) shares its top-level names without imports.
      const dir = defPath.includes('/') ? defPath.slice(0, defPath.lastIndexOf('/')) : '';
      const ext = defPath.slice(defPath.lastIndexOf('.'));
      const files = this.state.resolver().files;
      const dirs = family === 'java' ? [dir, ...samePackageElsewhere(dir, files)] : [dir];
      for (const d of dirs)
        for (const f of files.inDir(d)) if (f !== defPath && f.endsWith(ext)) out.push({ file: f, path: name });
    }
    const graph = this.state.graph();
    const queue: Array<[string, string]> = [[defPath, name]];
    const seen = new Set<string>([`${defPath}\0${name}`]);
    const reach = (file: string, path: string, binds: boolean) => {
      const key = `${file}\0${path}`;
      if (seen.has(key)) return;
      seen.add(key);
      if (binds) out.push({ file, path });
      queue.push([file, path]);
    };
    let steps = 0;
    for (let qi = 0; qi < queue.length && steps < MAX_BINDING_STEPS; qi++) {
      const [file, n] = queue[qi];
      const dot = n.indexOf('.');
      const head = dot < 0 ? n : n.slice(0, dot);
      const rest = dot < 0 ? '' : n.slice(dot);
      graph.forEachImporter(file, (importer, names) => {
        steps++;
        // Re-exports pass the name on without binding it; imports bind it (and may pass it on again).
        for (const entry of names) {
          const binds = !entry.reexport;
          if (entry.name === head && entry.local !== '*') reach(importer, entry.local + rest, binds);
          else if (entry.name === 'default' && isDefault && file === defPath && n === name)
            reach(importer, entry.local, binds);
          else if (entry.name === '*' && entry.local === '*') reach(importer, n, binds);
          else if (entry.name === '*') reach(importer, `${entry.local}.${n}`, binds);
        }
      });
    }
    return out;
  }

  /** Calls that reach one definition, optionally only those inside one file. */
  callsTo(def: SymbolRow, onlyFile?: string): CallerRef[] {
    if (languageOf(def.path) === 'ruby') return rubyCallsTo(this.state.db, def, onlyFile);
    const out: CallerRef[] = [];
    const isMethod = def.kind === 'method' && !!def.container;
    // A function in a TypeScript namespace is bound through the outermost namespace: `A.B.f`.
    const nsPath = !isMethod && def.container ? def.container.split('.') : [];
    const bound = isMethod ? def.container! : nsPath.length ? nsPath[0] : def.name;
    const suffix = nsPath.length ? [...nsPath.slice(1), def.name].join('.') : '';
    const family = familyOf(languageOf(def.path) ?? 'typescript');
    const bindings = this.bindingsOf(def.path, bound, def.exported === 2);
    // A TypeScript or PHP method is also called through the bases and interfaces that declare it, and on
    // the classes below them: the language's own notion of its references.
    const langs = HERITAGE_LANGS[family];
    const relatives =
      isMethod && langs
        ? methodFamily(this.state.db, this.state.heritage(), family, def.container!, def.name, def.path, langs)
        : { names: [], definitions: [] };
    if (relatives.definitions.length) {
      const seen = new Set(bindings.map((b) => `${b.file}\0${b.path}`));
      // Nearest relatives first, within a budget: a family of a hundred schema types re-exported through
      // one namespace is named in every file, which says nothing about any one call.
      for (let i = 0, added = 0; i < relatives.definitions.length && added < MAX_RELATIVE_BINDINGS; i++) {
        const r = relatives.definitions[i];
        for (const b of this.bindingsOf(r.path, r.name, r.exported === 2)) {
          const key = `${b.file}\0${b.path}`;
          if (seen.has(key)) continue;
          seen.add(key);
          bindings.push({ ...b, relative: true });
          added++;
        }
      }
    }
    // Where the class itself is named: a field declared there with its name is of this very class.
    const named = new Map<string, Set<string>>();
    for (const b of bindings)
      if (!b.relative) named.set(b.file, (named.get(b.file) ?? new Set()).add(lastSegment(isMethod ? b.path : bound)));
    const reaches = (file: string, type: string) => type === def.container && !!named.get(file)?.has(type);
    if (onlyFile !== undefined)
      for (let i = bindings.length - 1; i >= 0; i--) if (bindings[i].file !== onlyFile) bindings.splice(i, 1);
    const implicitThis = family === 'java' || family === 'csharp';
    const looseQualifier = family === 'rust' || family === 'python';
    const graph = this.state.graph();
    // Where the method's own class (or Rust impl, whose methods sit in the type's file) spans.
    const classSpans = isMethod
      ? all<{ start_line: number; end_line: number }>(
          this.state.db,
          `SELECT s.start_line AS start_line, s.end_line AS end_line FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.name = ? AND s.kind IN (${CONTAINER_KINDS.map(() => '?').join(', ')})`,
          [def.path, def.container!, ...CONTAINER_KINDS],
        )
      : [];
    const insideClass = (c: CallRow) =>
      c.path === def.path &&
      (family === 'rust' || family === 'go' || classSpans.some((r) => c.line >= r.start_line && c.line <= r.end_line));

    // Interfaces that declare this method and whose every method the method's type has: a call
    // through one may reach this method.
    let declaring: Set<string> | undefined;
    const interfaces = () =>
      (declaring ??= isMethod
        ? implementedDeclaring(this.state.db, def.name, def.container!, def.path, fields, family)
        : new Set());

    const results = new Map<string, string | null | undefined>();
    const tsTypes = new Map<string, boolean>();
    // What the file's imports bind: a class called on itself, the one definition of an ambiguous producer.
    const imported = new BoundNames(this.state.db, graph, def, relatives.definitions, (file, d) =>
      this.bindsFunction(file, d, functionFiles),
    );
    const producers = {
      verdicts: new Map<string, boolean>(),
      ours: undefined as ((type: string) => boolean) | undefined,
    };
    const pyClasses = new Map<string, CallerConfidence | undefined>();
    const pyModules = new Map<string, boolean>();
    const pyFunctions = new Map<string, Set<string>>();
    const functionFiles = new Map<string, Set<string>>();
    const promotions = new Map<string, boolean>();
    const promotes = (type: string) => {
      let v = promotions.get(type);
      if (v === undefined)
        promotions.set(
          type,
          (v =
            this.state.goEmbedders(def.container!).has(lastSegment(type)) &&
            !this.goDeclares(lastSegment(type), def.name)),
        );
      return v;
    };
    const pyModule = (dotted: string) => {
      if (!pyModules.has(dotted)) pyModules.set(dotted, pyModuleExists(this.state.db, dotted));
      return pyModules.get(dotted)!;
    };
    // PHP: `$this->m()` in another class calls that class's m, which is this one only where that class
    // is of the method's family: a subclass, a base, a trait its class uses. Outside any class, perhaps.
    let phpOurs: Set<string> | undefined;
    const spansByFile = new Map<string, Array<{ name: string; start_line: number; end_line: number }>>();
    const phpSelfOurs = (c: CallRow) => {
      const cls = this.classAt(c.path, c.line, spansByFile);
      phpOurs ??= new Set([
        def.container!,
        ...relatives.names,
        ...basesOf(this.state.db, this.state.heritage(), def.container!, "('php')", 'php'),
      ]);
      return cls === undefined || phpOurs.has(cls);
    };
    const fields = new FieldTypes(
      this.state.db,
      this.state.heritage(),
      family === 'go' || family === 'python' || family === 'php' ? family : 'js',
    );
    const priors = new NamePriors(this.state.db, fields);

    // Each binding names the callee it expects in one file; fetch only those calls, once per name and file.
    const full = (b: Binding) => (isMethod ? `${b.path}.${def.name}` : suffix ? `${b.path}.${suffix}` : b.path);
    const wanted = new Map<string, Set<string>>();
    for (const b of bindings) {
      const f = full(b);
      const callee = f.slice(f.lastIndexOf('.') + 1);
      let files = wanted.get(callee);
      if (!files) wanted.set(callee, (files = new Set()));
      files.add(b.file);
    }
    const byName = new Map<string, Map<string, CallRow[]>>();
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

    if (!isMethod) {
      for (const b of bindings) {
        const f = full(b);
        const at = f.lastIndexOf('.');
        const calls = byName.get(f.slice(at + 1))?.get(b.file);
        if (!calls) continue;
        const qualifier = at < 0 ? null : f.slice(0, at);
        for (const c of calls) {
          const q = c.qualifier === null ? null : c.qualifier.replace(/::/g, '.');
          const match =
            q === qualifier ||
            (looseQualifier && q !== null && qualifier !== null && lastSegment(q) === lastSegment(qualifier)) ||
            // Inside the namespace's own file its members are called unqualified.
            (suffix !== '' && q === null && b.file === def.path);
          if (match) out.push({ ...callRef(c), confidence: 'resolved' });
        }
      }
      return out;
    }

    // Each file's bindings name the class (`own`) or one of its relatives; its calls are read once.
    const namesIn = new Map<string, { own: Set<string>; rel: Set<string> }>();
    for (const b of bindings) {
      let names = namesIn.get(b.file);
      if (!names) namesIn.set(b.file, (names = { own: new Set(), rel: new Set() }));
      (b.relative ? names.rel : names.own).add(b.path);
    }
    const calledIn = byName.get(def.name);
    const related = new Set(relatives.names);
    for (const [file, { own, rel }] of namesIn) {
      const calls = calledIn?.get(file);
      if (!calls) continue;
      // The class or one of its instances, or a relative's, is what the method is called on.
      const moduleNames = graph.moduleNames(file);
      // A file that names only relatives calls the method through one of them.
      const through = own.size ? undefined : lastSegment(rel.values().next().value!);
      for (const c of calls) {
        const q = c.qualifier === null ? null : c.qualifier.replace(/::/g, '.');
        let confidence: CallerConfidence | undefined;
        let via = through;
        let chosen: BoundResult = NOT_BOUND;
        if (q === null) confidence = implicitThis && insideClass(c) ? 'resolved' : undefined;
        // A Go variable whose declaration names its type: this type's method; through an interface
        // that has the method, perhaps this one; another type's method, not this one.
        else if (q.startsWith(TYPED_RECEIVER)) {
          const declared = q.slice(TYPED_RECEIVER.length);
          // A field's type is written as the file declaring the field sees it.
          const chain = declared.startsWith(FIELD_OF) ? declared.slice(FIELD_OF.length) : undefined;
          const field = chain && !fields.ownerFromLibrary(c.path, chain) ? fields.typeOf(chain, c.path) : undefined;
          // Python's result is written as the file of its `def` sees it (`typing.Generator`).
          const pyResult = family === 'python' && declared.startsWith(RESULT_OF);
          const result = pyResult ? fields.pyResults()!.of(declared.slice(RESULT_OF.length), c.path) : undefined;
          const spec =
            !pyResult && declared.startsWith(RESULT_OF) ? resultSpec(declared.slice(RESULT_OF.length)) : undefined;
          const type = pyResult
            ? result && result.type
            : spec
              ? this.resultType(spec.producer, results, family)
              : declared.startsWith(FIELD_OF)
                ? field?.type
                : declared;
          // What the call returns is unknown, and the variable holding it is of a name the workspace declares as another type.
          if (
            (type === null || type === undefined) &&
            spec?.holder &&
            family === 'js' &&
            priors.declaresOther(spec.holder, def.container, related)
          )
            confidence = undefined;
          // Python: what a call returns, or a field holds, is of no known class (`with click.get_pager_file() as pager`,
          // `self.decompressor = zlib.decompressobj()`): a method named like one of str's, dict's or a file's (`pager.write()`,
          // `.flush()`) is most likely theirs, as on a value nothing types, unless the field's name says it holds the class.
          else if (
            family === 'python' &&
            (type === null || type === undefined) &&
            PY_BUILTIN_METHODS.has(def.name) &&
            (pyResult ||
              (chain !== undefined && !namesOneOf(lastSegment(chain), [def.container ?? def.name, ...related])))
          )
            confidence = undefined;
          // Several definitions of the producer (`array()` of two APIs): the one this file imports says which type.
          else if (
            type === null &&
            spec &&
            family === 'js' &&
            (chosen = imported.result(spec.producer, c.path)) !== NOT_BOUND
          ) {
            confidence = chosen.confidence;
            if (chosen.via) via = chosen.via;
          }
          // Several definitions of the producer, each declaring a type of another family (`object()` of two APIs).
          else if (type === null)
            confidence =
              spec && family === 'js' && !this.someResultMayHave(spec.producer, def, related, producers)
                ? undefined
                : 'likely';
          // A JavaScript library call's result, or a Python field no class types, may be anything; a Go one is no workspace type.
          // So may a PHP property no class types; a PHP library's result is none of the workspace's classes.
          else if (type === undefined)
            confidence = family === 'js' || family === 'python' || (family === 'php' && !spec) ? 'likely' : undefined;
          // A declared type is written as this file sees it (`mux.Route`); a result type as its definition's file does.
          else if (
            field
              ? reaches(field.path, lastSegment(type))
              : own.has(type) || (type !== declared && lastSegment(type) === def.container)
          )
            confidence = 'resolved';
          // A type the file imports from a package outside the workspace (`stat: fs.Stats`, `item: TreeItem` of the vscode package).
          else if (
            family === 'js' &&
            (field ? fields.fromLibrary(field.path, type) : type === declared && fields.fromLibrary(c.path, declared))
          )
            confidence = undefined;
          else if (rel.has(type) || related.has(lastSegment(type))) {
            confidence = 'likely';
            via = lastSegment(type);
          } else if (family === 'js')
            confidence = this.tsTypeMayHave(lastSegment(type), def.name, tsTypes) ? 'likely' : undefined;
          // A field's class is written as the file declaring the field sees it (`httpcore.ConnectionPool`).
          else if (family === 'python')
            confidence = pyOtherClass(
              this.state.db,
              this.state.heritage(),
              type,
              def.name,
              field?.path || result?.path || c.path,
              fields,
              pyClasses,
            );
          // Go: a struct that embeds the method's type, and has no method of that name of its own, has it promoted.
          else if (family === 'go' && promotes(type)) confidence = 'resolved';
          else confidence = interfaces().has(lastSegment(type)) ? 'likely' : undefined;
        } else if (own.has(q)) confidence = 'resolved';
        else if (rel.has(q)) {
          confidence = 'likely';
          via = lastSegment(q);
        }
        // `z.max()` with `import * as z`: a module's function, not a method of an instance.
        else if (moduleNames?.has(q)) confidence = undefined;
        // Python's `flask.json.loads()` with `import flask`: a submodule's function, where the workspace has that
        // module; `os.environ.update()` with `import os`: what a library's module holds.
        else if (
          family === 'python' &&
          q.includes('.') &&
          moduleNames?.has(q.slice(0, q.indexOf('.'))) &&
          (pyModule(q) || fields.fromLibrary(c.path, q))
        )
          confidence = undefined;
        // `super.m()` inside the class calls its base's m, never its own.
        else if (q === SUPER_RECEIVER[family]) confidence = insideClass(c) ? undefined : 'likely';
        // `this.m()` inside the class itself; elsewhere (another class, a subclass) it may be another m.
        else if (SELF_RECEIVERS.has(q) && (q !== 'base' || family === 'csharp'))
          confidence = insideClass(c) ? 'resolved' : family !== 'php' || phpSelfOurs(c) ? 'likely' : undefined;
        // Python: `key.decode()` on a value nothing types, with the name of one of str's, bytes', list's or dict's
        // methods, is most likely theirs, unless the value's name says it is of the method's family (`decoder`).
        else if (
          family === 'python' &&
          !q.includes('.') &&
          PY_BUILTIN_METHODS.has(def.name) &&
          !namesOneOf(q, [def.container ?? def.name, ...related])
        )
          confidence = undefined;
        // Go: `c.flags.m()` calls a method of a field, and every type of the package is in scope.
        else if (family === 'go' && q.includes('.')) confidence = undefined;
        // A global object (`JSON.parse()`); a name nothing here types, which the workspace's declarations
        // agree is another type (`res: Response`).
        else if (family === 'js' && (JS_GLOBAL_OBJECTS.has(q) || priors.declaresOther(q, def.container, related)))
          confidence = undefined;
        // A name the file imports from a package outside the workspace (`vscode.window`, `path`); another
        // class of the workspace, called on itself (`Mappings.findMotion()`): a static method, not this one.
        else if (
          family === 'js' &&
          (fields.fromLibrary(c.path, q) ||
            (lastSegment(q) !== def.container && !related.has(lastSegment(q)) && imported.namesClass(c.path, q)))
        )
          confidence = undefined;
        else confidence = 'likely';
        if (confidence === 'likely' && via) out.push({ ...callRef(c), confidence, via });
        else if (confidence) out.push({ ...callRef(c), confidence });
      }
    }
    if (isMethod && family === 'python') {
      out.push(...callsOnFields({ db: this.state.db, fields, def, found: out, onlyFile, related, reaches }));
      out.push(
        ...pyCallsOnResults({ db: this.state.db, fields, def, found: out, onlyFile, related, reaches }, (file, fn) =>
          this.bindsPyFunction(file, fn, pyFunctions),
        ),
      );
    }
    if (family === 'js') {
      if (isMethod)
        out.push(...callsOnFields({ db: this.state.db, fields, def, found: out, onlyFile, related, reaches }));
      if (isMethod)
        out.push(
          ...callsByNamePrior(
            this.state.db,
            def,
            out,
            onlyFile,
            priors,
            (file, name) => !!graph.moduleNames(file)?.has(name),
          ),
        );
      out.push(
        ...callsOnResults({
          db: this.state.db,
          heritage: this.state.heritage(),
          langs: JS_LANGS,
          family,
          def,
          found: out,
          onlyFile,
          related,
          named: reaches,
          bindsFunction: (file, d) => this.bindsFunction(file, d, functionFiles),
        }),
      );
      if (this.distinctiveMethod(def, relatives.names))
        out.push(...this.callsByDistinctName(def, out, onlyFile, tsTypes, related, fields));
    }
    // PHP: `$this->getFactory()->m()`, `$x->m()` after `$x = $repo->find()`, in files that never name the class.
    if (family === 'php' && isMethod)
      out.push(...callsOnFields({ db: this.state.db, fields, def, found: out, onlyFile, related, reaches }));
    if (family === 'php' && isMethod)
      out.push(
        ...callsOnResults({
          db: this.state.db,
          heritage: this.state.heritage(),
          langs: "('php')",
          family,
          def,
          found: out,
          onlyFile,
          related,
          named: reaches,
        }),
      );
    return out;
  }

  /** The innermost class, interface or enum of `path` around `line` (each file's read once into `cache`). */
  private classAt(
    path: string,
    line: number,
    cache: Map<string, Array<{ name: string; start_line: number; end_line: number }>>,
  ): string | undefined {
    let spans = cache.get(path);
    if (!spans) {
      spans = all<{ name: string; start_line: number; end_line: number }>(
        this.state.db,
        `SELECT s.name AS name, s.start_line AS start_line, s.end_line AS end_line FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.kind IN (${CONTAINER_KINDS.map(() => '?').join(', ')}) ORDER BY s.start_line DESC`,
        [path, ...CONTAINER_KINDS],
      );
      cache.set(path, spans);
    }
    return spans.find((s) => s.start_line <= line && line <= s.end_line)?.name;
  }

  /** Whether `file` can call the function `d` (the files that bind it are kept in `cache`). */
  private bindsFunction(
    file: string,
    d: { path: string; name: string; exported: number },
    cache: Map<string, Set<string>>,
  ): boolean {
    const key = `${d.path}\0${d.name}`;
    let files = cache.get(key);
    if (!files) cache.set(key, (files = new Set(this.bindingsOf(d.path, d.name, d.exported === 2).map((b) => b.file))));
    return files.has(file);
  }

  /** Whether a Go type of this name has a method of this name of its own. */
  private goDeclares(type: string, method: string): boolean {
    return !!one<{ n: number }>(
      this.state.db,
      "SELECT 1 AS n FROM symbols s JOIN files f ON f.id = s.file WHERE s.container = ? AND s.name = ? AND s.kind = 'method' AND f.lang = 'go' LIMIT 1",
      [type, method],
    );
  }

  /** Whether a Python file can call the module function `name`: it defines it, or imports it (the files are kept in `cache`). */
  private bindsPyFunction(file: string, name: string, cache: Map<string, Set<string>>): boolean {
    let files = cache.get(name);
    if (!files) {
      files = new Set();
      const defs = all<{ path: string; exported: number }>(
        this.state.db,
        "SELECT f.path AS path, s.exported AS exported FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind = 'function' AND s.container IS NULL AND f.lang = 'python' LIMIT 20",
        [name],
      );
      for (const d of defs) {
        files.add(d.path);
        for (const b of this.bindingsOf(d.path, name, d.exported === 2)) files.add(b.file);
      }
      cache.set(name, files);
    }
    return files.has(file);
  }

  /**
   * A TypeScript or JavaScript method whose name no other definition of the workspace has, and one
   * specific enough (`valuesFromSelect`, `getColumnLength`) that a platform or library object is
   * unlikely to have a method of that name too. Its calls on values of unknown type may well be its own.
   */
  private distinctiveMethod(def: SymbolRow, relatives: readonly string[]): boolean {
    const name = def.name;
    if (name.length < 8 || !/[a-z0-9][A-Z]|[a-z]_[a-z]/.test(name) || PLATFORM_METHODS.has(name)) return false;
    // The class's own method, and those of its family (an interface's, an override's), are one method.
    const owners = new Set([def.container ?? '', ...relatives]);
    const others = all<{ kind: string; container: string | null }>(
      this.state.db,
      `SELECT s.kind AS kind, s.container AS container FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND f.lang IN ${JS_LANGS} LIMIT 200`,
      [name],
    );
    return others.every((r) => r.kind === 'method' && r.container !== null && owners.has(r.container));
  }

  /** `x.m()` anywhere, for a distinctive method `m`: likely, unless the receiver is known to be something else. */
  private callsByDistinctName(
    def: SymbolRow,
    found: readonly CallerRef[],
    onlyFile: string | undefined,
    tsTypes: Map<string, boolean>,
    related: ReadonlySet<string>,
    fields: FieldTypes,
  ): CallerRef[] {
    const seen = new Set(found.map((r) => `${r.path}:${r.line}:${r.column}`));
    const results = new Map<string, string | null | undefined>();
    const graph = this.state.graph();
    const rows =
      onlyFile === undefined
        ? all<CallRow>(
            this.state.db,
            `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND c.qualifier IS NOT NULL LIMIT ${MAX_DISTINCT_CALLS}`,
            [def.name],
          )
        : all<CallRow>(
            this.state.db,
            `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND c.qualifier IS NOT NULL AND f.path = ?`,
            [def.name, onlyFile],
          );
    const out: CallerRef[] = [];
    for (const c of rows) {
      if (seen.has(`${c.path}:${c.line}:${c.col}`) || !/\.(?:[cm]?[jt]sx?)$/.test(c.path)) continue;
      const q = c.qualifier!;
      if (graph.moduleNames(c.path)?.has(q)) continue;
      if (q.startsWith(TYPED_RECEIVER)) {
        const declared = q.slice(TYPED_RECEIVER.length);
        const type = declared.startsWith(RESULT_OF)
          ? this.resultType(resultSpec(declared.slice(RESULT_OF.length)).producer, results, 'js')
          : declared.startsWith(FIELD_OF)
            ? fields.typeOf(declared.slice(FIELD_OF.length))?.type
            : lastSegment(declared);
        if (
          typeof type === 'string' &&
          type !== def.container &&
          !related.has(type) &&
          !this.tsTypeMayHave(type, def.name, tsTypes)
        )
          continue;
      }
      out.push({ ...callRef(c), confidence: 'likely', uniqueName: true });
    }
    return out;
  }

  /**
   * Whether a TypeScript value declared as `type` may have this class's method `method`, `type` being
   * neither the class nor one of its family. A class or interface of the workspace has not: its
   * methods are another family's. Nor has a type alias that declares no method of that name: a
   * `ctx: Options` whose `ctx.format()` calls a property. Nor has a primitive or one of JavaScript's
   * own classes (`RegExp`). A type the workspace does not define (a library's, a type parameter) may be anything.
   */
  private tsTypeMayHave(type: string, method: string, cache: Map<string, boolean>): boolean {
    let v = cache.get(type);
    if (v === undefined && JS_PRIMITIVE_TYPES.has(type)) v = false;
    if (v === undefined) {
      const kinds = all<{ kind: string }>(
        this.state.db,
        `SELECT DISTINCT s.kind AS kind FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.container IS NULL AND f.lang IN ${JS_LANGS}`,
        [type],
      ).map((r) => r.kind);
      if (!kinds.length) v = !JS_GLOBAL_OBJECTS.has(type);
      else if (!kinds.includes('type')) v = false;
      else
        v = !!one<{ n: number }>(
          this.state.db,
          `SELECT 1 AS n FROM symbols WHERE container = ? AND name = ? AND kind = 'method' LIMIT 1`,
          [type, method],
        );
      cache.set(type, v);
    }
    return v;
  }

  /**
   * Whether some JavaScript or TypeScript definition of `producer` may return a value with `def`'s
   * method: one declares no type, or a type of the method's family, or one that may be.
   */
  private someResultMayHave(
    producer: string,
    def: SymbolRow,
    related: ReadonlySet<string>,
    cache: { verdicts: Map<string, boolean>; ours?: (type: string) => boolean },
  ): boolean {
    let v = cache.verdicts.get(producer);
    if (v === undefined) {
      if (!cache.ours) {
        // A base of the method's class counts too: a base's method that returns `this` returns the subclass.
        const bases = basesOf(this.state.db, this.state.heritage(), def.container!, JS_LANGS);
        cache.ours = familyHolder(
          this.state.db,
          this.state.heritage(),
          (t) => related.has(t) || bases.has(t),
          JS_LANGS,
        );
      }
      const ours = cache.ours;
      const rows = all<{ returns: string | null }>(
        this.state.db,
        `SELECT DISTINCT s.returns AS returns FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind IN ('function', 'method') AND f.lang IN ${JS_LANGS}`,
        [producer],
      );
      v = !rows.length || rows.some(({ returns: r }) => r === null || ours(lastSegment(r)));
      cache.verdicts.set(producer, v);
    }
    return v;
  }

  /**
   * The type a Go (or, with `js`, a JavaScript and TypeScript) function or method named `name` returns, when every definition of the name agrees;
   * null when the workspace defines it without one type (the receiver stays unknown); undefined when
   * the workspace does not define it at all (a library's function, whose result is no workspace type).
   */
  private resultType(
    name: string,
    cache: Map<string, string | null | undefined>,
    family: ReturnType<typeof familyOf>,
  ): string | null | undefined {
    if (cache.has(name)) return cache.get(name);
    // A built-in's result (`rows.filter(…)`) is no workspace type, even where the workspace defines a `filter`.
    if (family === 'js' && BUILTIN_RESULTS.has(name)) return undefined;
    // PHP: a method of a class the code names (`ContainerBuilder#getDefinition`): a library's gives no workspace type.
    if (family === 'php' && name.includes(METHOD_OF)) {
      const owned = phpOwnedResult(this.state.db, this.state.heritage(), name);
      const type = owned ? owned.type : undefined;
      cache.set(name, type);
      return type;
    }
    // PHP: what iterating the result of `name` gives (`getRequires[]`): the elements of the array it returns.
    const element = family === 'php' && name.endsWith(ELEMENTS);
    const base = element ? name.slice(0, -ELEMENTS.length) : name;
    const rows = all<{ returns: string | null }>(
      this.state.db,
      `SELECT s.returns AS returns FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind IN ('function', 'method') AND f.lang IN ${family === 'js' ? JS_LANGS : `('${family}')`}`,
      [base],
    );
    if (element)
      for (const r of rows) r.returns = r.returns?.endsWith(ELEMENTS) ? r.returns.slice(0, -ELEMENTS.length) : null;
    const types = new Set(rows.map((r) => (r.returns === null ? null : lastSegment(r.returns))));
    const type = !rows.length ? undefined : types.size === 1 && !types.has(null) ? rows[0].returns : null;
    cache.set(name, type);
    return type;
  }
}
