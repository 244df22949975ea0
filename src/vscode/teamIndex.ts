import * as vscode from 'vscode';
import type { SnapshotOutcome, SnapshotSource } from '../core/api/types';
import { ids } from './ids';

/** Where the bearer token for the team index lives: the editor's secret storage, never a setting. */
const TOKEN_KEY = 'proactiveContext.teamIndex.token';
const SOURCE_SETTING = 'teamIndex.source';

/**
 * Team index snapshots in the editor: the command that keeps the download token in secret storage,
 * and the source each workspace folder opens with. The source is read from the user's own settings
 * only (the setting is machine-scoped): a repository's settings must not point the editor at a URL
 * of someone else's choice.
 */
export function registerTeamIndex(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
): () => SnapshotSource | undefined {
  context.subscriptions.push(
    vscode.commands.registerCommand(ids.command.setTeamIndexToken, async () => {
      const value = await vscode.window.showInputBox({
        title: 'Proactive Context: Team Index Token',
        prompt: 'The bearer token for downloading the team index snapshot. Leave empty to remove the saved one.',
        password: true,
        ignoreFocusOut: true,
      });
      if (value === undefined) return;
      if (value.trim()) await context.secrets.store(TOKEN_KEY, value.trim());
      else await context.secrets.delete(TOKEN_KEY);
      void vscode.window.showInformationMessage(
        value.trim()
          ? 'Proactive Context: the team index token is saved in the secret storage; it is used from the next start.'
          : 'Proactive Context: the team index token was removed.',
      );
    }),
  );
  let warned = false;
  const onOutcome = (o: SnapshotOutcome) => {
    if (o.status !== 'refused' || warned) return;
    warned = true;
    void vscode.window
      .showWarningMessage(
        `Proactive Context: the team index was not used (${o.message}); indexing locally.`,
        'Show Log',
      )
      .then((a) => a && log.show());
  };
  return () => {
    // The user's (or the machine's) value only, whatever a workspace file says.
    const location = vscode.workspace
      .getConfiguration(ids.configSection)
      .inspect<string>(SOURCE_SETTING)
      ?.globalValue?.trim();
    if (!location) return undefined;
    return {
      location,
      token: async () =>
        (await context.secrets.get(TOKEN_KEY)) ?? (process.env.PROACTIVE_CONTEXT_SNAPSHOT_TOKEN || undefined),
      onOutcome,
    };
  };
}
