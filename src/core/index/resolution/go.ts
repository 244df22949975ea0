import { one } from '../../store/sqlite';
import { lastSegment } from '../indexRows';
import { NOT_A_CALL, RESOLVED, SELF_RECEIVERS, throughInterface, unknownIsLikely } from './query';
import type { CallQuery, LanguageCalls, LanguageResolution, TypedCall, Verdict } from './query';

/** Go: one package per folder, methods anywhere in the type's file, embedded structs promote methods. */
export const goResolution: LanguageResolution = {
  packageDirs: (_state, dir) => [dir],
  classIsFile: true,
  selfReceivers: SELF_RECEIVERS,
  fields: 'go',
  open: (q) => new GoCalls(q),
};

class GoCalls implements LanguageCalls {
  private readonly promotions = new Map<string, boolean>();

  constructor(private readonly q: CallQuery) {}

  unknownType = unknownIsLikely;

  otherType(t: TypedCall): Verdict {
    // A struct that embeds the method's type, and has no method of that name of its own, has it promoted.
    return this.promotes(t.type!) ? RESOLVED : throughInterface(this.q, t.type!);
  }

  /** `c.flags.m()` calls a method of a field, and every type of the package is in scope. */
  untypedReceiver(_c: unknown, q: string): Verdict | undefined {
    return q.includes('.') ? NOT_A_CALL : undefined;
  }

  private promotes(type: string): boolean {
    const { state, def } = this.q;
    let v = this.promotions.get(type);
    if (v === undefined)
      this.promotions.set(
        type,
        (v = state.goEmbedders(def.container!).has(lastSegment(type)) && !this.declares(lastSegment(type), def.name)),
      );
    return v;
  }

  /** Whether a Go type of this name has a method of this name of its own. */
  private declares(type: string, method: string): boolean {
    return !!one<{ n: number }>(
      this.q.state.db,
      "SELECT 1 AS n FROM symbols s JOIN files f ON f.id = s.file WHERE s.container = ? AND s.name = ? AND s.kind = 'method' AND f.lang = 'go' LIMIT 1",
      [type, method],
    );
  }
}
