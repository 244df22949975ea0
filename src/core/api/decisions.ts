import { MemoryError, parseProposals } from '../memory/memoryStore';
import type { NewDecision } from '../sources/decisions/adrWriter';

/**
 * A decision draft from a model's reply to the drafting prompt: its JSON when it gave one, else the
 * reply itself as the decision, so a chatty model still yields something the user can review.
 */
export function decisionFromReply(title: string, reply: string): NewDecision {
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
