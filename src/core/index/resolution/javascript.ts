import { all, one } from '../../store/sqlite';
import { FIELD_OF, RESULT_OF, resultSpec, TYPED_RECEIVER } from '../facts';
import { callsOnFields } from '../fieldTypes';
import { basesOf, familyHolder } from '../heritage';
import { CALL_COLS, CALLS, callRef, lastSegment, type CallRow, type SymbolRow } from '../indexRows';
import type { CallerRef } from '../indexTypes';
import { JS_GLOBAL_OBJECTS, JS_PRIMITIVE_TYPES, PLATFORM_METHODS } from '../methodNames';
import { callsByNamePrior } from '../namePriors';
import { callsOnResults } from '../resultCalls';
import { NOT_BOUND, type BoundResult } from '../boundDefinitions';
import { JS_LANGS, LIKELY, NOT_A_CALL, SELF_RECEIVERS, workspaceCalls } from './query';
import type { CallQuery, LanguageCalls, LanguageResolution, TypedCall, Verdict } from './query';
import { resultType } from './results';

/** Most calls of a distinctive method name looked at. */
const MAX_DISTINCT_CALLS = 2000;

/** TypeScript and JavaScript: classes with heritage, fields, name priors, and calls on results. */
export const javascriptResolution: LanguageResolution = {
  heritageLangs: JS_LANGS,
  superReceiver: 'super',
  selfReceivers: SELF_RECEIVERS,
  fields: 'js',
  open: (q) => new JavaScriptCalls(q),
};

class JavaScriptCalls implements LanguageCalls {
  private readonly tsTypes = new Map<string, boolean>();
  private readonly producers = {
    verdicts: new Map<string, boolean>(),
    ours: undefined as ((type: string) => boolean) | undefined,
  };

  constructor(private readonly q: CallQuery) {}

  unknownType(t: TypedCall): Verdict {
    const { q } = this;
    const { def, related, priors } = q;
    let chosen: BoundResult = NOT_BOUND;
    // What the call returns is unknown, and the variable holding it is of a name the workspace declares as another type.
    if (t.spec?.holder && priors.declaresOther(t.spec.holder, def.container, related)) return NOT_A_CALL;
    // Several definitions of the producer (`array()` of two APIs): the one this file imports says which type.
    if (t.type === null && t.spec && (chosen = q.imported.result(t.spec.producer, t.c.path)) !== NOT_BOUND)
      return { confidence: chosen.confidence, via: chosen.via || undefined };
    // Several definitions of the producer, each declaring a type of another family (`object()` of two APIs).
    if (t.type === null) return t.spec && !this.someResultMayHave(t.spec.producer, def, related) ? NOT_A_CALL : LIKELY;
    // A JavaScript library call's result may be anything.
    return LIKELY;
  }

  /** A type the file imports from a package outside the workspace (`stat: fs.Stats`, `item: TreeItem` of the vscode package). */
  foreignType(t: TypedCall): boolean {
    const { fields } = this.q;
    return t.field
      ? fields.fromLibrary(t.field.path, t.type!)
      : t.type === t.declared && fields.fromLibrary(t.c.path, t.declared);
  }

  otherType(t: TypedCall): Verdict {
    return this.tsTypeMayHave(lastSegment(t.type!), this.q.def.name) ? LIKELY : NOT_A_CALL;
  }

  untypedReceiver(c: CallRow, q: string): Verdict | undefined {
    const { def, related, priors, fields, imported } = this.q;
    // A global object (`JSON.parse()`); a name nothing here types, which the workspace's declarations
    // agree is another type (`res: Response`).
    if (JS_GLOBAL_OBJECTS.has(q) || priors.declaresOther(q, def.container, related)) return NOT_A_CALL;
    // A name the file imports from a package outside the workspace (`vscode.window`, `path`); another
    // class of the workspace, called on itself (`Mappings.findMotion()`): a static method, not this one.
    if (
      fields.fromLibrary(c.path, q) ||
      (lastSegment(q) !== def.container && !related.has(lastSegment(q)) && imported.namesClass(c.path, q))
    )
      return NOT_A_CALL;
    return undefined;
  }

  moreCalls(out: CallerRef[]): void {
    const q = this.q;
    const { state, def, onlyFile, related } = q;
    const calls = workspaceCalls(q, out);
    out.push(...callsOnFields(calls));
    const graph = state.graph();
    out.push(
      ...callsByNamePrior(state.db, def, out, onlyFile, q.priors, (file, name) => !!graph.moduleNames(file)?.has(name)),
    );
    out.push(
      ...callsOnResults({
        db: state.db,
        heritage: state.heritage(),
        langs: JS_LANGS,
        family: 'js',
        def,
        found: out,
        onlyFile,
        related,
        named: calls.reaches,
        bindsFunction: (file, d) => q.bindsFunction(file, d),
      }),
    );
    if (this.distinctiveMethod()) out.push(...this.callsByDistinctName(out));
  }

  /**
   * A TypeScript or JavaScript method whose name no other definition of the workspace has, and one
   * specific enough (`valuesFromSelect`, `getColumnLength`) that a platform or library object is
   * unlikely to have a method of that name too. Its calls on values of unknown type may well be its own.
   */
  private distinctiveMethod(): boolean {
    const { def, related } = this.q;
    const name = def.name;
    if (name.length < 8 || !/[a-z0-9][A-Z]|[a-z]_[a-z]/.test(name) || PLATFORM_METHODS.has(name)) return false;
    // The class's own method, and those of its family (an interface's, an override's), are one method.
    const owners = new Set([def.container ?? '', ...related]);
    const others = all<{ kind: string; container: string | null }>(
      this.q.state.db,
      `SELECT s.kind AS kind, s.container AS container FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND f.lang IN ${JS_LANGS} LIMIT 200`,
      [name],
    );
    return others.every((r) => r.kind === 'method' && r.container !== null && owners.has(r.container));
  }

  /** `x.m()` anywhere, for a distinctive method `m`: likely, unless the receiver is known to be something else. */
  private callsByDistinctName(found: readonly CallerRef[]): CallerRef[] {
    const { state, def, onlyFile, related, fields } = this.q;
    const seen = new Set(found.map((r) => `${r.path}:${r.line}:${r.column}`));
    const results = new Map<string, string | null | undefined>();
    const graph = state.graph();
    const rows =
      onlyFile === undefined
        ? all<CallRow>(
            state.db,
            `SELECT ${CALL_COLS} FROM ${CALLS} WHERE c.name = ? AND c.qualifier IS NOT NULL LIMIT ${MAX_DISTINCT_CALLS}`,
            [def.name],
          )
        : all<CallRow>(
            state.db,
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
          ? resultType(state, resultSpec(declared.slice(RESULT_OF.length)).producer, results, 'js')
          : declared.startsWith(FIELD_OF)
            ? fields.typeOf(declared.slice(FIELD_OF.length))?.type
            : lastSegment(declared);
        if (
          typeof type === 'string' &&
          type !== def.container &&
          !related.has(type) &&
          !this.tsTypeMayHave(type, def.name)
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
  private tsTypeMayHave(type: string, method: string): boolean {
    const cache = this.tsTypes;
    const db = this.q.state.db;
    let v = cache.get(type);
    if (v === undefined && JS_PRIMITIVE_TYPES.has(type)) v = false;
    if (v === undefined) {
      const kinds = all<{ kind: string }>(
        db,
        `SELECT DISTINCT s.kind AS kind FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.container IS NULL AND f.lang IN ${JS_LANGS}`,
        [type],
      ).map((r) => r.kind);
      if (!kinds.length) v = !JS_GLOBAL_OBJECTS.has(type);
      else if (!kinds.includes('type')) v = false;
      else
        v = !!one<{ n: number }>(
          db,
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
  private someResultMayHave(producer: string, def: SymbolRow, related: ReadonlySet<string>): boolean {
    const cache = this.producers;
    const { db } = this.q.state;
    let v = cache.verdicts.get(producer);
    if (v === undefined) {
      if (!cache.ours) {
        // A base of the method's class counts too: a base's method that returns `this` returns the subclass.
        const bases = basesOf(db, this.q.state.heritage(), def.container!, JS_LANGS);
        cache.ours = familyHolder(db, this.q.state.heritage(), (t) => related.has(t) || bases.has(t), JS_LANGS);
      }
      const ours = cache.ours;
      const rows = all<{ returns: string | null }>(
        db,
        `SELECT DISTINCT s.returns AS returns FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind IN ('function', 'method') AND f.lang IN ${JS_LANGS}`,
        [producer],
      );
      v = !rows.length || rows.some(({ returns: r }) => r === null || ours(lastSegment(r)));
      cache.verdicts.set(producer, v);
    }
    return v;
  }
}
