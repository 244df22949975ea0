import { all } from '../../store/sqlite';
import { CONTAINER_KINDS } from '../facts';
import { callsOnFields } from '../fieldTypes';
import { basesOf } from '../heritage';
import type { CallRow } from '../indexRows';
import type { CallerRef } from '../indexTypes';
import { callsOnResults } from '../resultCalls';
import { LIKELY, NOT_A_CALL, SELF_RECEIVERS, throughInterface, workspaceCalls } from './query';
import type { CallQuery, LanguageCalls, LanguageResolution, TypedCall, Verdict } from './query';

type Span = { name: string; start_line: number; end_line: number };

/** PHP: a namespace folder shares its names, traits and bases make `$this->m()` a family matter. */
export const phpResolution: LanguageResolution = {
  packageDirs: (_state, dir) => [dir],
  heritageLangs: "('php')",
  selfReceivers: SELF_RECEIVERS,
  fields: 'php',
  open: (q) => new PhpCalls(q),
};

class PhpCalls implements LanguageCalls {
  private ours: Set<string> | undefined;
  private readonly spansByFile = new Map<string, Span[]>();

  constructor(private readonly q: CallQuery) {}

  /** A property no class types may be anything; a library's result is none of the workspace's classes. */
  unknownType(t: TypedCall): Verdict {
    return t.type === null || !t.spec ? LIKELY : NOT_A_CALL;
  }

  otherType(t: TypedCall): Verdict {
    return throughInterface(this.q, t.type!);
  }

  /**
   * `$this->m()` in another class calls that class's m, which is this one only where that class
   * is of the method's family: a subclass, a base, a trait its class uses. Outside any class, perhaps.
   */
  selfElsewhere(c: CallRow): boolean {
    const { state, def, related } = this.q;
    const cls = this.classAt(c.path, c.line);
    this.ours ??= new Set([
      def.container!,
      ...related,
      ...basesOf(state.db, state.heritage(), def.container!, "('php')", 'php'),
    ]);
    return cls === undefined || this.ours.has(cls);
  }

  /** `$this->getFactory()->m()`, `$x->m()` after `$x = $repo->find()`, in files that never name the class. */
  moreCalls(out: CallerRef[]): void {
    const q = this.q;
    const { state, def, onlyFile, related } = q;
    const calls = workspaceCalls(q, out);
    out.push(...callsOnFields(calls));
    out.push(
      ...callsOnResults({
        db: state.db,
        heritage: state.heritage(),
        langs: "('php')",
        family: 'php',
        def,
        found: out,
        onlyFile,
        related,
        named: calls.reaches,
      }),
    );
  }

  /** The innermost class, interface or enum of `path` around `line` (each file's read once). */
  private classAt(path: string, line: number): string | undefined {
    let spans = this.spansByFile.get(path);
    if (!spans) {
      spans = all<Span>(
        this.q.state.db,
        `SELECT s.name AS name, s.start_line AS start_line, s.end_line AS end_line FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? AND s.kind IN (${CONTAINER_KINDS.map(() => '?').join(', ')}) ORDER BY s.start_line DESC`,
        [path, ...CONTAINER_KINDS],
      );
      this.spansByFile.set(path, spans);
    }
    return spans.find((s) => s.start_line <= line && line <= s.end_line)?.name;
  }
}
