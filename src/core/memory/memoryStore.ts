import { createHash } from 'node:crypto';
import { nullLogger, type Logger } from '../logger';
import { redactSecrets } from '../security/secretRedaction';
import { all, run } from '../store/sqlite';
import type { Store } from '../store/store';

/** One chat exchange kept for later turns and conversations. */
export interface Episode {
  id: string;
  conversationId: string;
  prompt: string;
  answer: string;
  /** Unix ms. */
  at: number;
}

/** A memory search result: a past chat episode or a recorded decision. */
export interface MemoryHit {
  kind: 'episode' | 'decision';
  id: string;
  title: string;
  snippet: string;
  /** Higher is better; comparable only within one kind. */
  score: number;
  at?: number;
  conversationId?: string;
  path?: string;
  /** Where in `path` a decision starts, when the file keeps several (a decision log). */
  line?: number;
}

/** A decision record matching a memory search; `line` is where it starts in a file that keeps several. */
export interface DecisionMatch {
  title: string;
  path: string;
  line?: number;
  snippet: string;
}

export interface MemorySearchOptions {
  excludeConversationId?: string;
  limit?: number;
  signal?: AbortSignal;
}

/** What memory subscriptions and prompt assembly need from memory. */
export interface MemorySearch {
  search(query: string, options?: MemorySearchOptions): Promise<MemoryHit[]>;
}

/** Text search over decision records (ADRs); implemented by the decisions module. */
export interface DecisionSearch {
  search(query: string, limit: number): Promise<DecisionMatch[]> | DecisionMatch[];
}

/** A language model that completes a prompt (the chat model in VS Code, anything else elsewhere). */
export interface TextModel {
  complete(prompt: string, signal?: AbortSignal): Promise<string>;
}

/** A decision the model proposes from past conversations; the user reviews it before anything is written. */
export interface ProposedDecision {
  title: string;
  context: string;
  decision: string;
  consequences: string;
}

/** A memory operation that could not be done; the message is written for the user. */
export class MemoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MemoryError';
  }
}

export interface MemoryStoreOptions {
  decisions?: DecisionSearch;
  now?: () => number;
  logger?: Logger;
}

const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have how i if in into is it its me my not of on or our should so that the their then there these this to was we what when where which who why will with would you your'.split(
    ' ',
  ),
);
const MAX_TERMS = 24;
const RECENCY_HALF_LIFE_DAYS = 30;
const MAX_EPISODE_CHARS = 100_000;

/**
 * Turns free text into a MATCH expression FTS4 always accepts: each word quoted, joined by OR;
 * longer words also match as prefixes so "subscription" finds "subscriptions". Empty when nothing is searchable.
 */
export function toMatchQuery(text: string): string {
  const words = (
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}_]+/gu) ?? []
  ).filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)));
  const unique = [...new Set(words)].slice(0, MAX_TERMS);
  return unique.map((w) => (w.length >= 5 ? `"${w}*"` : `"${w}"`)).join(' OR ');
}

/** Chat memory: episodes saved on the hot path (no model call), searched with FTS4 and ranked by BM25 and recency. */
export class MemoryStore implements MemorySearch {
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly decisions?: DecisionSearch;

  constructor(
    private readonly store: Store,
    options: MemoryStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? nullLogger;
    this.decisions = options.decisions;
  }

  /** Saves one exchange; the same exchange saved twice is kept once. Returns its id. */
  saveEpisode(episode: { conversationId: string; prompt: string; answer: string; at?: number }): string {
    const at = episode.at ?? this.now();
    const prompt = episode.prompt.slice(0, MAX_EPISODE_CHARS);
    const answer = episode.answer.slice(0, MAX_EPISODE_CHARS);
    const conversationId = episode.conversationId;
    const id = createHash('sha256').update(`${conversationId}\0${at}\0${prompt}`).digest('hex').slice(0, 16);
    this.store.write((db) => {
      const exists = all(db, 'SELECT id FROM episodes WHERE id = ?', [id]).length > 0;
      if (exists) return;
      run(db, 'INSERT INTO episodes (id, conversation_id, prompt, answer, created_at) VALUES (?, ?, ?, ?, ?)', [
        id,
        conversationId,
        prompt,
        answer,
        at,
      ]);
      run(db, 'INSERT INTO episodes_fts (id, prompt, answer) VALUES (?, ?, ?)', [id, prompt, answer]);
    });
    return id;
  }

  /** Forgets saved episodes: of one conversation, or all of them. Returns how many were removed. */
  forgetEpisodes(conversationId?: string): number {
    const ids = this.store.read((db) =>
      (conversationId === undefined
        ? all<{ id: string }>(db, 'SELECT id FROM episodes')
        : all<{ id: string }>(db, 'SELECT id FROM episodes WHERE conversation_id = ?', [conversationId])
      ).map((r) => r.id),
    );
    if (!ids.length) return 0;
    this.store.write((db) => {
      for (const id of ids) {
        run(db, 'DELETE FROM episodes WHERE id = ?', [id]);
        run(db, 'DELETE FROM episodes_fts WHERE id = ?', [id]);
      }
    });
    return ids.length;
  }

  /** The most recent episodes, newest first; of one conversation when given. */
  recentEpisodes(options: { conversationId?: string; limit?: number } = {}): Episode[] {
    const limit = Math.max(1, Math.min(options.limit ?? 50, 1000));
    return this.store
      .read((db) =>
        options.conversationId
          ? all<EpisodeRow>(
              db,
              'SELECT * FROM episodes WHERE conversation_id = ? ORDER BY created_at DESC, id LIMIT ?',
              [options.conversationId, limit],
            )
          : all<EpisodeRow>(db, 'SELECT * FROM episodes ORDER BY created_at DESC, id LIMIT ?', [limit]),
      )
      .map(toEpisode);
  }

  /** Ranked past episodes matching the query, never from the excluded (current) conversation. */
  searchEpisodes(query: string, options: MemorySearchOptions = {}): MemoryHit[] {
    const match = toMatchQuery(query);
    if (!match) return [];
    const limit = Math.max(1, Math.min(options.limit ?? 5, 100));
    const exclude = options.excludeConversationId ?? null;
    const rows = this.store.read((db) =>
      all<EpisodeRow & { mi: Uint8Array }>(
        db,
        `SELECT e.id, e.conversation_id, e.prompt, e.answer, e.created_at, matchinfo(episodes_fts, 'pcnalx') AS mi
           FROM episodes_fts JOIN episodes e ON e.id = episodes_fts.id
          WHERE episodes_fts MATCH ? AND (? IS NULL OR e.conversation_id <> ?)`,
        [match, exclude, exclude],
      ),
    );
    const now = this.now();
    const scored = rows
      .map((r) => {
        const relevance = bm25(r.mi, [0, 1, 0.8]);
        const ageDays = Math.max(0, now - Number(r.created_at)) / 86_400_000;
        const recency = Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
        return { row: r, relevance, score: relevance * (0.75 + 0.25 * recency) };
      })
      .filter((s) => s.relevance > 0);
    scored.sort(
      (a, b) =>
        b.score - a.score || Number(b.row.created_at) - Number(a.row.created_at) || a.row.id.localeCompare(b.row.id),
    );
    return scored.slice(0, limit).map(({ row, score }) => ({
      kind: 'episode' as const,
      id: row.id,
      title: safeLine(row.prompt, 120),
      snippet: safeLine(row.answer, 300),
      score,
      at: Number(row.created_at),
      conversationId: row.conversation_id,
    }));
  }

  /** Decisions, notes and past chat episodes matching the query, interleaved (decisions first), at most `limit`. */
  async search(query: string, options: MemorySearchOptions = {}): Promise<MemoryHit[]> {
    const limit = Math.max(1, Math.min(options.limit ?? 5, 100));
    const episodes = this.searchEpisodes(query, { ...options, limit });
    let decisions: MemoryHit[] = [];
    if (this.decisions && toMatchQuery(query)) {
      try {
        const found = await this.decisions.search(query, limit);
        decisions = found.slice(0, limit).map((d, i) => ({
          kind: 'decision' as const,
          id: d.line ? `${d.path}#${d.line}` : d.path,
          title: safeLine(d.title, 300),
          snippet: safeLine(d.snippet, 300),
          score: 1 / (1 + i),
          path: d.path,
          ...(d.line ? { line: d.line } : {}),
        }));
      } catch (err) {
        this.logger.warn(`Decision search failed: ${(err as Error).message}`);
      }
    }
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
    const merged: MemoryHit[] = [];
    for (let i = 0; merged.length < limit && (i < decisions.length || i < episodes.length); i++) {
      if (i < decisions.length) merged.push(decisions[i]);
      if (i < episodes.length && merged.length < limit) merged.push(episodes[i]);
    }
    return merged;
  }

  /** Asks the model to turn past episodes into proposed decisions (nothing is written). */
  consolidate(
    episodes: readonly Episode[],
    model: TextModel,
    options: ConsolidateOptions = {},
  ): Promise<ProposedDecision[]> {
    return consolidateEpisodes(episodes, model, options);
  }
}

export interface ConsolidateOptions {
  signal?: AbortSignal;
  /** Default 60 s. */
  timeoutMs?: number;
  /** Upper bound on the episode text sent to the model; default 24,000 characters. */
  maxPromptChars?: number;
  maxProposals?: number;
}

/** The prompt that asks a model for proposed decisions as JSON. */
export function buildConsolidationPrompt(episodes: readonly Episode[], maxChars = 24_000): string {
  const parts: string[] = [];
  let used = 0;
  const sorted = [...episodes].sort((a, b) => a.at - b.at);
  for (const e of sorted.reverse()) {
    // The prompt goes to a model, off this machine: keys pasted into a chat stay here.
    const block = `### ${new Date(e.at).toISOString().slice(0, 16).replace('T', ' ')} (conversation ${e.conversationId})\nUser: ${redactSecrets(e.prompt.trim()).text}\nAssistant: ${redactSecrets(e.answer.trim()).text}\n`;
    if (used + block.length > maxChars) {
      if (!parts.length) parts.push(block.slice(0, maxChars));
      break;
    }
    parts.push(block);
    used += block.length;
  }
  parts.reverse();
  return [
    'Below are excerpts of past conversations between a developer and an assistant about one codebase.',
    'Extract the architecture or design decisions that were actually made or agreed (not questions, not ideas that were rejected).',
    'Reply with a JSON array only, no prose, where each element is:',
    '{"title": "short imperative title", "context": "the problem and forces", "decision": "what was decided", "consequences": "what follows from it"}',
    'Reply with [] if no decision was made.',
    '',
    ...parts,
  ].join('\n');
}

/** Sends episodes to the model and returns the proposals it made, parsed leniently and validated. */
export async function consolidateEpisodes(
  episodes: readonly Episode[],
  model: TextModel,
  options: ConsolidateOptions = {},
): Promise<ProposedDecision[]> {
  if (!episodes.length) return [];
  const prompt = buildConsolidationPrompt(episodes, options.maxPromptChars);
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) controller.abort(options.signal.reason);
  const timeoutMs = options.timeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await Promise.race([
      model.complete(prompt, controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new MemoryError(`The model did not answer within ${(timeoutMs / 1000).toLocaleString('en-US')} s.`));
          controller.abort();
        }, timeoutMs);
      }),
      new Promise<never>((_, reject) => {
        if (controller.signal.aborted) reject(new MemoryError('Consolidation was cancelled.'));
        controller.signal.addEventListener('abort', () => reject(new MemoryError('Consolidation was cancelled.')), {
          once: true,
        });
      }),
    ]);
    return parseProposals(reply, options.maxProposals ?? 20);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Reads proposed decisions out of a model reply: tolerates code fences, prose around the JSON, and a single object. */
export function parseProposals(reply: string, maxProposals = 20): ProposedDecision[] {
  const json = extractJson(reply);
  if (json === undefined) throw new MemoryError('The model reply held no JSON list of decisions.');
  const list = Array.isArray(json)
    ? json
    : json && typeof json === 'object' && Array.isArray((json as { decisions?: unknown }).decisions)
      ? (json as { decisions: unknown[] }).decisions
      : [json];
  const out: ProposedDecision[] = [];
  const titles = new Set<string>();
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const o = item as Record<string, unknown>;
    const text = (v: unknown, max: number) =>
      typeof v === 'string'
        ? v.trim().slice(0, max)
        : Array.isArray(v)
          ? v
              .filter((x) => typeof x === 'string')
              .join('\n')
              .trim()
              .slice(0, max)
          : '';
    const title = text(o.title, 200).replace(/\s+/g, ' ');
    const decision = text(o.decision, 4000);
    if (!title || !decision) continue;
    const key = title.toLowerCase();
    if (titles.has(key)) continue;
    titles.add(key);
    out.push({ title, context: text(o.context, 4000), decision, consequences: text(o.consequences, 4000) });
    if (out.length >= maxProposals) break;
  }
  return out;
}

/** The bodies of ``` fences (optionally ```json), found with indexOf: the model's reply is not trusted to be small or tidy. */
function fencedBlocks(reply: string): string[] {
  const out: string[] = [];
  let at = reply.indexOf('```');
  while (at >= 0) {
    const nl = reply.indexOf('\n', at + 3);
    if (nl < 0) break;
    const info = reply
      .slice(at + 3, nl)
      .trim()
      .toLowerCase();
    const close = reply.indexOf('```', nl + 1);
    if (close < 0) break;
    if (info === '' || info === 'json') out.push(reply.slice(nl + 1, close));
    at = reply.indexOf('```', close + 3);
  }
  return out;
}

function extractJson(reply: string): unknown {
  const candidates: string[] = [];
  candidates.push(...fencedBlocks(reply));
  candidates.push(reply);
  for (const c of candidates) {
    for (const open of ['[', '{']) {
      let from = c.indexOf(open);
      while (from >= 0) {
        const end = matchingClose(c, from);
        if (end > from) {
          try {
            return JSON.parse(c.slice(from, end + 1));
          } catch {
            // Try the next opening bracket.
          }
        }
        from = c.indexOf(open, from + 1);
      }
    }
  }
  return undefined;
}

function matchingClose(s: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < s.length; i++) {
    const ch = s[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

interface EpisodeRow {
  id: string;
  conversation_id: string;
  prompt: string;
  answer: string;
  created_at: number;
}

function toEpisode(r: EpisodeRow): Episode {
  return { id: r.id, conversationId: r.conversation_id, prompt: r.prompt, answer: r.answer, at: Number(r.created_at) };
}

/** One line of a hit, with secrets redacted before it is cut (a cut must not leave half a key). */
function safeLine(s: string, max: number): string {
  return oneLine(redactSecrets(s).text, max);
}

function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/**
 * Okapi BM25 from FTS4 matchinfo('pcnalx'), summed over columns with the given weights
 * (a weight of 0 skips a column, like the id).
 */
export function bm25(matchinfo: Uint8Array, weights: readonly number[], k1 = 1.2, b = 0.75): number {
  const copy = new Uint8Array(matchinfo);
  const mi = new Uint32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
  const p = mi[0];
  const c = mi[1];
  const n = mi[2];
  const avg = (j: number) => mi[3 + j];
  const len = (j: number) => mi[3 + c + j];
  const xBase = 3 + 2 * c;
  let score = 0;
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < c; j++) {
      const w = weights[j] ?? 1;
      if (!w) continue;
      const at = xBase + 3 * (i * c + j);
      const tf = mi[at];
      const docs = mi[at + 2];
      if (!tf) continue;
      const idf = Math.max(0.01, Math.log((n - docs + 0.5) / (docs + 0.5) + 1));
      const norm = 1 - b + b * (len(j) / Math.max(1, avg(j)));
      score += w * idf * ((tf * (k1 + 1)) / (tf + k1 * norm));
    }
  }
  return score;
}
