import { all } from '../../store/sqlite';
import { callsOnFields } from '../fieldTypes';
import { lastSegment, type CallRow } from '../indexRows';
import type { CallerConfidence, CallerRef } from '../indexTypes';
import { namesOneOf, PY_BUILTIN_METHODS } from '../methodNames';
import { pyCallsOnResults, pyModuleExists, pyOtherClass } from '../pythonClasses';
import { LIKELY, NOT_A_CALL, SELF_RECEIVERS, workspaceCalls } from './query';
import type { CallQuery, LanguageCalls, LanguageResolution, TypedCall, Verdict } from './query';

/** Python: modules named by their last segment, results typed as their `def`'s file sees them, builtins' methods. */
export const pythonResolution: LanguageResolution = {
  heritageLangs: "('python')",
  looseQualifier: true,
  superReceiver: 'super',
  selfReceivers: SELF_RECEIVERS,
  fields: 'python',
  open: (q) => new PythonCalls(q),
};

class PythonCalls implements LanguageCalls {
  private readonly classes = new Map<string, CallerConfidence | undefined>();
  private readonly modules = new Map<string, boolean>();
  private readonly functions = new Map<string, Set<string>>();

  constructor(private readonly q: CallQuery) {}

  /** Python's result is written as the file of its `def` sees it (`typing.Generator`). */
  readResult(spec: string, c: CallRow): { type: string | null | undefined; path: string | undefined } {
    const result = this.q.fields.pyResults()!.of(spec, c.path);
    return { type: result && result.type, path: result?.path };
  }

  unknownType(t: TypedCall): Verdict {
    const { def, related } = this.q;
    // What a call returns, or a field holds, is of no known class (`with click.get_pager_file() as pager`,
    // `self.decompressor = zlib.decompressobj()`): a method named like one of str's, dict's or a file's (`pager.write()`,
    // `.flush()`) is most likely theirs, as on a value nothing types, unless the field's name says it holds the class.
    if (
      PY_BUILTIN_METHODS.has(def.name) &&
      (t.ownResult ||
        (t.chain !== undefined && !namesOneOf(lastSegment(t.chain), [def.container ?? def.name, ...related])))
    )
      return NOT_A_CALL;
    // A field no class types may be anything.
    return LIKELY;
  }

  /** A field's class is written as the file declaring the field sees it (`httpcore.ConnectionPool`). */
  otherType(t: TypedCall): Verdict {
    const { state, def, fields } = this.q;
    return {
      confidence: pyOtherClass(
        state.db,
        state.heritage(),
        t.type!,
        def.name,
        t.field?.path || t.resultPath || t.c.path,
        fields,
        this.classes,
      ),
    };
  }

  untypedReceiver(c: CallRow, q: string, moduleNames: ReadonlySet<string> | undefined): Verdict | undefined {
    const { def, related, fields } = this.q;
    // `flask.json.loads()` with `import flask`: a submodule's function, where the workspace has that
    // module; `os.environ.update()` with `import os`: what a library's module holds.
    if (
      q.includes('.') &&
      moduleNames?.has(q.slice(0, q.indexOf('.'))) &&
      (this.moduleExists(q) || fields.fromLibrary(c.path, q))
    )
      return NOT_A_CALL;
    // `key.decode()` on a value nothing types, with the name of one of str's, bytes', list's or dict's
    // methods, is most likely theirs, unless the value's name says it is of the method's family (`decoder`).
    if (!q.includes('.') && PY_BUILTIN_METHODS.has(def.name) && !namesOneOf(q, [def.container ?? def.name, ...related]))
      return NOT_A_CALL;
    return undefined;
  }

  moreCalls(out: CallerRef[]): void {
    const calls = workspaceCalls(this.q, out);
    out.push(...callsOnFields(calls));
    out.push(...pyCallsOnResults(calls, (file, fn) => this.bindsFunction(file, fn)));
  }

  private moduleExists(dotted: string): boolean {
    if (!this.modules.has(dotted)) this.modules.set(dotted, pyModuleExists(this.q.state.db, dotted));
    return this.modules.get(dotted)!;
  }

  /** Whether a Python file can call the module function `name`: it defines it, or imports it. */
  private bindsFunction(file: string, name: string): boolean {
    let files = this.functions.get(name);
    if (!files) {
      files = new Set();
      const defs = all<{ path: string; exported: number }>(
        this.q.state.db,
        "SELECT f.path AS path, s.exported AS exported FROM symbols s JOIN files f ON f.id = s.file WHERE s.name = ? AND s.kind = 'function' AND s.container IS NULL AND f.lang = 'python' LIMIT 20",
        [name],
      );
      for (const d of defs) {
        files.add(d.path);
        for (const b of this.q.bindingsOf(d.path, name, d.exported === 2)) files.add(b.file);
      }
      this.functions.set(name, files);
    }
    return files.has(file);
  }
}
