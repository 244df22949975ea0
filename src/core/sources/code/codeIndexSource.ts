import { isTestFile } from '../../cochange/testPairing';
import type { CodeIndex } from '../../index/codeIndex';
import { familyOf, languageOf } from '../../index/languages';
import type { CallerConfidence, CallerRef } from '../../index/indexTypes';
import type { QueryContext, SuggestionSource } from '../sourceQuery';
import type { SuggestionItem, SuggestionType } from '../../types';

/** How many callers one suggestion shows at most. */
const MAX_CALLERS = 30;
/**
 * Link strength by how sure the index is; every production caller outranks every test caller, since
 * the code that depends on a function in earnest is what an edit can break unseen.
 */
const PRODUCTION_SCORE: Readonly<Record<CallerConfidence, number>> = { resolved: 0.85, likely: 0.65, name: 0.55 };
const TEST_SCORE: Readonly<Record<CallerConfidence, number>> = { resolved: 0.5, likely: 0.42, name: 0.34 };

/**
 * Suggestions from the code index: who calls the symbol at the cursor (related code) and which
 * deprecated definitions the current file uses (warnings).
 */
export class CodeIndexSource implements SuggestionSource {
  readonly name = 'code index';
  readonly kinds: readonly SuggestionType[] = ['related_code', 'warning'];

  constructor(
    private readonly index: Pick<CodeIndex, 'callers' | 'deprecatedUsedIn' | 'definitionFileCount' | 'graphRead'>,
  ) {}

  // Async so that a failing index query reaches the provider as a rejected collect, like any source's.
  async collect(ctx: QueryContext): Promise<SuggestionItem[]> {
    const file = ctx.query.currentFile;
    if (!file) return [];
    // Callers need the import graph: one being read in slices is waited for, not read again in one step.
    await this.index.graphRead();
    const items: SuggestionItem[] = [];
    if (ctx.config.enabledKinds.related_code) items.push(...this.callers(ctx, file));
    if (ctx.config.enabledKinds.warning) items.push(...this.deprecatedUses(file, ctx.symbolRange));
    return items;
  }

  private callers(ctx: QueryContext, file: string): SuggestionItem[] {
    const symbol = ctx.symbolRange?.name ?? ctx.query.currentSymbol;
    if (!symbol) return [];
    const range = ctx.symbolRange;
    const line = range?.startLine ?? ctx.query.cursorPosition?.line;
    // The index answers a constructor with the constructions of its class.
    const constructor = symbol === '__init__' || symbol === 'constructor';
    // A call matched by name alone says nothing when several files define the name (`GET` in every
    // route file, `default`, `main`, `handler`): it is as likely to call any of them as this one.
    const shared = this.index.definitionFileCount(symbol) > 1;
    // Nor when the call is in another language: a Kotlin method is not called by name from
    // TypeScript or Python (a request to its endpoint is no call of it).
    const family = languageFamily(file);
    const callers = this.index
      .callers({ name: symbol, path: file, line }, MAX_CALLERS)
      .filter((c) => c.confidence !== 'name' || (!shared && languageFamily(c.path) === family))
      // A call inside the function itself is already in front of the reader: a recursion, or more often a
      // call of another object's method of the same name (`super().clean()`, `Self::new` building a part).
      // A class's own factories (`static create() { return new Search() }`) do call it.
      .filter(
        (c) =>
          !(
            range &&
            c.path === file &&
            c.line >= range.startLine &&
            c.line <= range.endLine &&
            lastName(c.enclosing) === lastName(symbol)
          ),
      );
    return callers.map((c) => {
      const where = `${c.path}:${c.line}`;
      const test = isTestFile(c.path);
      // Calls outside any named function: in a test file they sit in test callbacks.
      const by = c.enclosing ?? (test ? 'test code' : 'top-level code');
      return {
        type: 'related_code' as const,
        title: `${by} — ${where}`,
        summary: `${by} in ${c.path} calls ${symbol} at line ${c.line}.`,
        relevanceScore: (test ? TEST_SCORE : PRODUCTION_SCORE)[c.confidence],
        reason: callerReason(c, symbol, constructor),
        location: { path: c.path, line: c.line },
        entityId: `caller:${c.path}:${c.enclosing ?? c.line}:${symbol}`,
        meta: { confidence: c.confidence, enclosing: by },
      };
    });
  }

  /** Uses inside the definition at the cursor when there is one: a use in another function is not this code's concern. */
  private deprecatedUses(file: string, range: QueryContext['symbolRange']): SuggestionItem[] {
    const uses = this.index.deprecatedUsedIn(file);
    const here = range ? uses.filter((d) => d.line >= range.startLine && d.line <= range.endLine) : uses;
    return here.map((d) => ({
      type: 'warning' as const,
      title: `Deprecated: ${d.name} used at line ${d.line}`,
      summary: `${d.name} is marked @deprecated in ${d.definition.path}:${d.definition.line}; it is called here${d.enclosing ? ` in ${d.enclosing}` : ''}.`,
      relevanceScore: 0.8,
      reason: `${d.name} is deprecated (${d.definition.path}:${d.definition.line})`,
      location: { path: file, line: d.line },
      entityId: `deprecated:${file}:${d.line}`,
      meta: { deprecated: d.name, definition: `${d.definition.path}:${d.definition.line}` },
    }));
  }
}

/** `clean` of `License.clean`, `new` of `Connection::new`. */
function lastName(name: string | undefined): string | undefined {
  return name?.split(/\.|::|#/).pop();
}

/** Languages that call each other by name: one per runtime (Kotlin, Scala and Groovy with Java, which the index reads). */
function languageFamily(path: string): string | undefined {
  const lang = languageOf(path);
  if (lang) return familyOf(lang);
  return /\.(?:kts?|scala|groovy)$/i.test(path) ? 'java' : undefined;
}

/** Why a call site is shown, by how sure the index is that it calls the symbol. */
function callerReason(c: CallerRef, symbol: string, constructor: boolean): string {
  if (constructor)
    return c.confidence === 'resolved'
      ? 'constructs this class (resolved through imports)'
      : c.confidence === 'likely'
        ? 'probably constructs this class'
        : 'constructs a class of this name';
  if (c.field) {
    const name = c.field.slice(c.field.lastIndexOf('.') + 1);
    return c.confidence === 'resolved'
      ? `calls ${symbol} on the field ${name}`
      : `probably calls ${symbol} on the field ${name}, declared as ${c.via}`;
  }
  if (c.resultOf)
    return `${c.confidence === 'resolved' ? 'calls' : 'probably calls'} ${symbol} on what ${c.resultOf}() returns`;
  if (c.confidence === 'resolved') return `calls ${symbol} (resolved through imports)`;
  if (c.confidence === 'likely') {
    if (c.via) return `probably calls ${symbol} through ${c.via}`;
    if (c.usualReceiver)
      return `probably calls ${symbol} (${c.usualReceiver} is typed as its class elsewhere in this workspace)`;
    return c.uniqueName
      ? `probably calls ${symbol} (no other class defines ${symbol})`
      : `probably calls ${symbol} (method of a class in scope)`;
  }
  return `calls something named ${symbol}`;
}
