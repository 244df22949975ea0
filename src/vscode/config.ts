import * as vscode from 'vscode';
import { resolveConfig, type CoreConfig } from '../core/api/types';
import { KINDS, SUGGESTION_TYPES, type SuggestionType } from '../shared/kinds';
import { ids } from './ids';

/** The one place that reads settings: returns the frozen snapshot the core works with. */
export function readConfig(scope?: vscode.ConfigurationScope): CoreConfig {
  const c = vscode.workspace.getConfiguration(ids.configSection, scope);
  const extraGlobs = c.get<string[]>('testReportGlobs', []).filter((g) => typeof g === 'string' && g.trim());
  const base = resolveConfig();
  return resolveConfig({
    enabledKinds: Object.fromEntries(SUGGESTION_TYPES.map((t) => [t, c.get(KINDS[t].setting, true)])) as Record<
      SuggestionType,
      boolean
    >,
    maxSuggestions: c.get('maxSuggestions', base.maxSuggestions),
    minRelevanceScore: c.get('minRelevanceScore', base.minRelevanceScore),
    recentChangeDays: c.get('recentChangeDays', base.recentChangeDays),
    debounceMs: c.get('debounceMs', base.debounceMs),
    cooldownMs: c.get('cooldownMinutes', base.cooldownMs / 60000) * 60000,
    subscriptions: {
      maxActive: c.get('subscriptions.maxActive', base.subscriptions.maxActive),
      maxChars: c.get('subscriptions.maxChars', base.subscriptions.maxChars),
      expiryHours: c.get('subscriptions.expiryHours', base.subscriptions.expiryHours),
    },
    decisionFolders: c.get<string[]>('decisionFolders', []).filter((f) => typeof f === 'string' && f.trim()),
    testReportGlobs: [...base.testReportGlobs, ...extraGlobs],
  });
}

/** Whether a watch made in the editor may show a notification when it fires while the user looks elsewhere. */
export function readWatchNotifications(): boolean {
  return vscode.workspace.getConfiguration(ids.configSection).get<boolean>('watches.notifications', true);
}

export function readStateDirSetting(): string | undefined {
  const v = vscode.workspace.getConfiguration(ids.configSection).get<string>('stateDirectory', '').trim();
  return v || undefined;
}

export function affectsConfig(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(ids.configSection);
}

/** Which hints the editor shows where the eyes are: CodeLens, the why-card hover, failing tests as problems. */
export interface EditorHintSettings {
  codeLens: boolean;
  hover: boolean;
  testDiagnostics: boolean;
}

export function readEditorHintSettings(scope?: vscode.ConfigurationScope): EditorHintSettings {
  const c = vscode.workspace.getConfiguration(ids.configSection, scope);
  return {
    codeLens: c.get('editor.codeLens', true),
    hover: c.get('editor.hover', true),
    testDiagnostics: c.get('editor.testDiagnostics', true),
  };
}

/** Whether to bring the Suggestions view forward when a folder opens. */
export function readRevealOnStartup(): boolean {
  return vscode.workspace.getConfiguration(ids.configSection).get('revealOnStartup', false);
}
