/** The parts of an assembled prompt and its ledger: what went in, what was cut to fit, and why. */
import type { MemoryHit } from '../memory/memoryStore';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** What a part of the prompt holds. Sections (history, suggestions, memory) are entries; their single items appear only as cuts. */
export type LedgerSource =
  | { kind: 'instructions' }
  | { kind: 'history'; turn?: number; of?: number; role?: ChatTurn['role'] }
  | { kind: 'subscription'; id: string; target: string }
  | { kind: 'suggestions' }
  | { kind: 'suggestion'; entityId: string; title: string; score: number }
  | { kind: 'memory' }
  | { kind: 'memoryHit'; id: string; hitKind: MemoryHit['kind']; title: string }
  | { kind: 'user' };

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: string;
  source: LedgerSource;
}

export interface LedgerEntry {
  source: LedgerSource;
  tokens: number;
  /** How many items the entry holds (history turns, suggestions, memory hits): always the section's top ones (newest turns, best hits, highest scores). */
  items?: number;
  changedSinceLastTurn?: boolean;
  expiresAt?: number;
}

export interface LedgerCut {
  source: LedgerSource;
  tokens: number;
  reason: string;
}

/** What went into a prompt, what was cut to fit, and why. */
export interface PromptLedger {
  entries: LedgerEntry[];
  cut: LedgerCut[];
  totalTokens: number;
  budget: number;
}
