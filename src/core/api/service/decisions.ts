import type { EngineParts } from '../../engine';
import {
  MemoryError,
  parseProposals,
  type Episode,
  type ProposedDecision,
  type TextModel,
} from '../../memory/memoryStore';
import type { NewDecision } from '../../sources/decisions/adrWriter';
import type { DecisionAnchor, DecisionRecord, DecisionSearch } from '../types';
import { anchorsOf, decisionSearch } from './editorSupport';

/** The workspace's decision records: listed, written, anchored to code, proposed. `service.decisions`. */
export class DecisionUseCases {
  readonly #parts: EngineParts;

  constructor(parts: EngineParts) {
    this.#parts = parts;
  }

  /** The decision records of the workspace, re-read first (only changed files are parsed); a decision log lists each of its entries. */
  async list(): Promise<DecisionRecord[]> {
    await refreshDecisions(this.#parts);
    return this.#parts.decisions.listEntries().map((d) => ({
      number: d.number,
      label: d.label,
      title: d.title,
      status: d.status,
      path: d.path,
      ...(d.span ? { line: d.span.line } : {}),
      body: d.body,
    }));
  }

  /** Writes a decision as an ADR file in the repository's own format; returns its root-relative path. */
  record(decision: NewDecision): Promise<string> {
    return this.#parts.decisions.recordDecision(decision);
  }

  /** The decision records that govern each definition of a workspace file (root-relative path). */
  anchors(file: string): DecisionAnchor[] {
    return anchorsOf(this.#parts, file);
  }

  /** Where decision records were looked for and how many were found, for an empty Decisions section. */
  search(): DecisionSearch {
    return decisionSearch(this.#parts);
  }

  /** Decisions a model proposes from past conversations; nothing is written until the user picks them. */
  propose(
    episodes: readonly Episode[],
    model: TextModel,
    options: { signal?: AbortSignal } = {},
  ): Promise<ProposedDecision[]> {
    return this.#parts.memory.consolidate(episodes, model, options);
  }

  /**
   * A decision draft from a model's reply to the drafting prompt: its JSON when it gave one, else the
   * reply itself as the decision, so a chatty model still yields something the user can review.
   */
  fromReply(title: string, reply: string): NewDecision {
    try {
      const [proposal] = parseProposals(reply, 1);
      if (proposal) return { ...proposal, title };
    } catch (err) {
      if (!(err instanceof MemoryError)) throw err;
    }
    return {
      title,
      context: 'Drafted from the @context conversation.',
      decision: reply.trim().slice(0, 4000) || 'Not discussed',
      consequences: 'Not discussed',
    };
  }
}

/**
 * Decisions as on disk: looked for again only when a cheap stamp says something changed (a record
 * just written changes its folder's stamp, so it counts).
 */
export async function refreshDecisions(parts: EngineParts): Promise<void> {
  try {
    await parts.decisions.refreshIfChanged();
  } catch (err) {
    parts.logger.warn(`Could not re-read decision records: ${(err as Error).message}`);
  }
}
