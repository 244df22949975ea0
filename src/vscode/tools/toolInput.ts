// Validation of language-model tool inputs. The model reads the thrown messages, so they say what
// was wrong and what a correct call looks like. Plain TypeScript (unit-tested in Node).
import { compileUserPattern, type SubscribeRequest } from '../../core/api/types';

export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

const MAX_TEXT = 1000;

function asObject(input: unknown, tool: string): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input))
    throw new ToolInputError(`${tool} takes a JSON object as input.`);
  return input as Record<string, unknown>;
}

function optionalString(o: Record<string, unknown>, key: string, tool: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ToolInputError(`${tool}: "${key}" must be a string (got ${typeof v}).`);
  const t = v.trim();
  if (t.length > MAX_TEXT)
    throw new ToolInputError(`${tool}: "${key}" is ${t.length} characters long; the limit is ${MAX_TEXT}.`);
  return t || undefined;
}

function requiredString(o: Record<string, unknown>, key: string, tool: string, example: string): string {
  const v = optionalString(o, key, tool);
  if (!v) throw new ToolInputError(`${tool} needs "${key}", e.g. ${example}.`);
  return v;
}

function optionalLine(o: Record<string, unknown>, key: string, tool: string): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
    throw new ToolInputError(`${tool}: "${key}" must be a whole line number, 1 or more (got ${JSON.stringify(v)}).`);
  return n;
}

/** subscribe_file `{ path, startLine?, endLine?, pattern? }` as a registry request. */
export function subscribeFileRequest(input: unknown): SubscribeRequest {
  const tool = 'subscribe_file';
  const o = asObject(input, tool);
  const path = requiredString(o, 'path', tool, '{"path": "src/app.ts"}');
  const startLine = optionalLine(o, 'startLine', tool);
  const endLine = optionalLine(o, 'endLine', tool);
  const pattern = optionalString(o, 'pattern', tool);
  if (pattern !== undefined && (startLine !== undefined || endLine !== undefined)) {
    throw new ToolInputError(`${tool}: give either a line range (startLine/endLine) or a pattern, not both.`);
  }
  if (pattern !== undefined) {
    const m = /^\/([\s\S]+)\/([a-z]*)$/.exec(pattern);
    try {
      compileUserPattern(m ? m[1] : pattern, m ? m[2].replace(/[gy]/g, '') : '');
    } catch (err) {
      throw new ToolInputError(`${tool}: "pattern" cannot be used: ${(err as Error).message}`);
    }
    return { kind: 'pattern', target: path, pattern };
  }
  if (startLine !== undefined || endLine !== undefined) {
    const start = startLine ?? 1;
    const end = endLine ?? start;
    if (end < start) throw new ToolInputError(`${tool}: endLine (${end}) is before startLine (${start}).`);
    return { kind: 'lines', target: path, lines: { start, end } };
  }
  return { kind: 'file', target: path };
}

/** subscribe_memory `{ query }`. */
export function subscribeMemoryRequest(input: unknown): SubscribeRequest {
  const tool = 'subscribe_memory';
  const query = requiredString(asObject(input, tool), 'query', tool, '{"query": "retry policy"}').replace(/\s+/g, ' ');
  if (query.length < 2) throw new ToolInputError(`${tool}: the query needs at least two characters.`);
  return { kind: 'memory', target: query };
}

/** unsubscribe `{ id }`. */
export function unsubscribeId(input: unknown): string {
  const tool = 'unsubscribe';
  const id = requiredString(asObject(input, tool), 'id', tool, '{"id": "k3x9q2"} (ids come from list_subscriptions)');
  if (!/^[a-z0-9_-]{1,64}$/i.test(id))
    throw new ToolInputError(`unsubscribe: "${id}" is not a subscription id; call list_subscriptions to see the ids.`);
  return id.toLowerCase();
}

/** context_suggest `{ path?, line?, symbol? }`; path undefined means the active editor. */
export function suggestInput(input: unknown): { path?: string; line?: number; symbol?: string } {
  const tool = 'context_suggest';
  const o = asObject(input, tool);
  const symbol = optionalString(o, 'symbol', tool);
  if (symbol !== undefined && !/^[\p{L}\p{N}_$][\p{L}\p{N}_$.#]*$/u.test(symbol))
    throw new ToolInputError(`${tool}: "${symbol}" is not a symbol name; use a name like parseConfig or Cart.total.`);
  return { path: optionalString(o, 'path', tool), line: optionalLine(o, 'line', tool), symbol };
}

const MAX_EDIT_PATHS = 10;

/** governing_decisions `{ paths }`: the workspace files about to be edited, at least one. */
export function editPathsInput(input: unknown): string[] {
  const tool = 'governing_decisions';
  const o = asObject(input, tool);
  const raw = typeof o.paths === 'string' ? [o.paths] : o.paths;
  if (!Array.isArray(raw) || !raw.length)
    throw new ToolInputError(`${tool} needs "paths", the files you are about to edit, e.g. {"paths": ["src/app.ts"]}.`);
  if (raw.length > MAX_EDIT_PATHS)
    throw new ToolInputError(
      `${tool}: at most ${MAX_EDIT_PATHS} paths per call (got ${raw.length}); call it again for the rest.`,
    );
  const out: string[] = [];
  for (const p of raw) {
    if (typeof p !== 'string' || !p.trim())
      throw new ToolInputError(`${tool}: each path must be a non-empty string (got ${JSON.stringify(p)}).`);
    if (p.length > MAX_TEXT)
      throw new ToolInputError(`${tool}: a path is ${p.length} characters long; the limit is ${MAX_TEXT}.`);
    if (!out.includes(p.trim())) out.push(p.trim());
  }
  return out;
}

/** Refuses extra input on tools that take none, so a confused call is not silently accepted. */
export function noInput(input: unknown, tool: string): void {
  const o = asObject(input, tool);
  const keys = Object.keys(o);
  if (keys.length) throw new ToolInputError(`${tool} takes no input (got ${keys.map((k) => `"${k}"`).join(', ')}).`);
}
