import type { SuggestionType } from './types';

/** The engine's settings: a frozen snapshot pushed in by each adapter (VS Code settings, CLI flags). */
export interface CoreConfig {
  readonly enabledKinds: Readonly<Record<SuggestionType, boolean>>;
  readonly maxSuggestions: number;
  readonly minRelevanceScore: number;
  readonly recentChangeDays: number;
  readonly subscriptions: {
    readonly maxActive: number;
    readonly maxChars: number;
    readonly expiryHours: number;
  };
  readonly debounceMs: number;
  readonly decisionFolders: readonly string[];
  readonly testReportGlobs: readonly string[];
  readonly cooldownMs: number;
  readonly index: {
    readonly maxFiles: number;
    readonly maxFileBytes: number;
    readonly timeBudgetMs: number;
    /** Threads that parse code beside the main one; 0 parses on the main thread; unset: by the cores. */
    readonly workers?: number;
  };
}

export const defaultConfig: CoreConfig = Object.freeze({
  enabledKinds: Object.freeze({
    decision: true,
    change: true,
    cochange: true,
    doc: true,
    related_code: true,
    warning: true,
  }),
  maxSuggestions: 20,
  minRelevanceScore: 0.2,
  recentChangeDays: 30,
  subscriptions: Object.freeze({ maxActive: 10, maxChars: 2000, expiryHours: 24 }),
  debounceMs: 50,
  decisionFolders: Object.freeze([]),
  testReportGlobs: Object.freeze([
    '**/junit*.xml',
    '**/TEST-*.xml',
    '**/test-results/**/*.xml',
    '**/reports/**/*.xml',
    '**/*test-report*.json',
    '**/test-results/**/*.json',
    '**/reports/**/*.json',
    '**/*.tap',
    '**/coverage/**/junit*.xml',
  ]),
  cooldownMs: 10 * 60 * 1000,
  index: Object.freeze({ maxFiles: 20000, maxFileBytes: 1024 * 1024, timeBudgetMs: 120000 }),
});

/** Merges a partial snapshot over the defaults, clamping numbers to sane ranges. */
export function resolveConfig(partial: Partial<CoreConfig> = {}): CoreConfig {
  const merged: CoreConfig = {
    ...defaultConfig,
    ...partial,
    enabledKinds: { ...defaultConfig.enabledKinds, ...(partial.enabledKinds ?? {}) },
    subscriptions: { ...defaultConfig.subscriptions, ...(partial.subscriptions ?? {}) },
    index: { ...defaultConfig.index, ...(partial.index ?? {}) },
  };
  const clamp = (n: number, lo: number, hi: number, fallback: number) =>
    Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : fallback;
  return Object.freeze({
    ...merged,
    maxSuggestions: clamp(merged.maxSuggestions, 1, 200, defaultConfig.maxSuggestions),
    minRelevanceScore: clamp(merged.minRelevanceScore, 0, 1, defaultConfig.minRelevanceScore),
    recentChangeDays: clamp(merged.recentChangeDays, 1, 3650, defaultConfig.recentChangeDays),
    debounceMs: clamp(merged.debounceMs, 0, 5000, defaultConfig.debounceMs),
    subscriptions: Object.freeze({
      maxActive: clamp(merged.subscriptions.maxActive, 1, 100, 10),
      maxChars: clamp(merged.subscriptions.maxChars, 200, 100000, 2000),
      expiryHours: clamp(merged.subscriptions.expiryHours, 0.01, 24 * 365, 24),
    }),
  });
}
