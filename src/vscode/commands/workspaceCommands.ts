import * as vscode from 'vscode';
import type { ContextService } from '../../core/api/contextService';
import { userMessageOf } from '../../core/api/errors';
import { noChatModel } from '../../core/api/messages';
import { percentile } from '../../shared/text';
import type { ProviderMetrics } from '../../core/api/types';
import type { ActivityTracker } from '../activityTracker';
import { ids } from '../ids';
import type { SuggestionsController } from '../suggestionsController';
import type { WorkspaceServices } from '../workspaceServices';
import { withService } from './subscriptionCommands';

// eslint-disable-next-line max-lines-per-function -- one registration per command
export function registerWorkspaceCommands(
  context: vscode.ExtensionContext,
  services: WorkspaceServices,
  tracker: ActivityTracker,
  controller: SuggestionsController,
  log: vscode.LogOutputChannel,
): void {
  const reg = (id: string, fn: () => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  reg(ids.command.refresh, () => tracker.refresh());
  reg(ids.command.showLog, () => log.show());

  reg(ids.command.reindex, () =>
    withService(services, async (service) => {
      // The panel keeps its answers until the new index is ready, then asks again.
      const release = controller.holdAnswers();
      try {
        await rebuildWithProgress(service);
      } finally {
        release();
      }
      tracker.refresh();
    }),
  );

  async function rebuildWithProgress(service: ContextService): Promise<void> {
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'Proactive Context: rebuilding the index',
        cancellable: true,
      },
      async (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        let last = 0;
        const stats = await service.workspace.rebuildIndex({
          signal: ac.signal,
          onProgress: (done, total) => {
            const pct = total ? Math.floor((done / total) * 100) : 0;
            if (pct > last) {
              progress.report({ increment: pct - last, message: `${done} of ${total} files` });
              last = pct;
            }
          },
        });
        if (ac.signal.aborted) {
          void vscode.window.showInformationMessage(
            'Index rebuild cancelled; the partial index is kept and completed in the background later.',
          );
          return;
        }
        void vscode.window.showInformationMessage(
          `Proactive Context indexed ${stats.files} files (${stats.symbols} definitions) in ${(stats.ms / 1000).toFixed(1)} s${stats.capped ? `; stopped at the ${stats.capped.reason} limit (${stats.capped.limit})` : ''}.`,
        );
      },
    );
  }

  reg(ids.command.showMetrics, () =>
    withService(services, async (service, folder) => {
      const doc = await vscode.workspace.openTextDocument({
        language: 'markdown',
        content: metricsMarkdown(folder.name, service.suggestions.metrics(), controller.latencies, service),
      });
      await vscode.window.showTextDocument(doc, { preview: true });
    }),
  );

  reg(ids.command.recordDecision, () =>
    withService(services, async (service, folder) => {
      const title = await vscode.window.showInputBox({
        title: 'Record a decision (1/3)',
        prompt: 'Title of the decision, e.g. “Use a Money type for all amounts”',
        validateInput: (v) =>
          v.trim().length < 3
            ? 'Enter a title of at least three characters'
            : v.length > 200
              ? 'Keep the title under 200 characters'
              : undefined,
      });
      if (!title) return;
      const ctxText = await vscode.window.showInputBox({
        title: 'Record a decision (2/3)',
        prompt: 'Context: what problem or forces led to this decision?',
        validateInput: (v) => (v.trim() ? undefined : 'Describe the context'),
      });
      if (ctxText === undefined) return;
      const decision = await vscode.window.showInputBox({
        title: 'Record a decision (3/3)',
        prompt: 'The decision: what will we do?',
        validateInput: (v) => (v.trim() ? undefined : 'Describe the decision'),
      });
      if (decision === undefined) return;
      try {
        const path = await service.decisions.record({
          title: title.trim(),
          context: ctxText.trim(),
          decision: decision.trim(),
          consequences: '',
        });
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, ...path.split('/')));
        await vscode.window.showTextDocument(doc);
        void vscode.window.showInformationMessage(`Recorded ${path}. Commit it so the team shares the decision.`);
        tracker.refresh();
      } catch (err) {
        void vscode.window.showErrorMessage(`Could not record the decision: ${(err as Error).message}`);
      }
    }),
  );

  reg(ids.command.consolidateMemory, () =>
    withService(services, async (service) => {
      const episodes = service.memory.recentEpisodes(50);
      if (episodes.length === 0) {
        void vscode.window.showInformationMessage('There is no chat memory yet: ask @context a few questions first.');
        return;
      }
      const [model] = await vscode.lm.selectChatModels();
      if (!model) {
        void vscode.window.showWarningMessage(noChatModel('propose decisions'));
        return;
      }
      const proposals = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Proposing decisions from ${episodes.length} conversations…`,
          cancellable: true,
        },
        async (_p, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          try {
            return await service.decisions.propose(
              episodes,
              {
                async complete(prompt, signal) {
                  const cts = new vscode.CancellationTokenSource();
                  signal?.addEventListener('abort', () => cts.cancel());
                  const res = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, cts.token);
                  let text = '';
                  for await (const part of res.text) text += part;
                  return text;
                },
              },
              { signal: ac.signal },
            );
          } catch (err) {
            if (err instanceof vscode.LanguageModelError) {
              void vscode.window.showErrorMessage(`The language model could not answer (${err.code}): ${err.message}`);
              return [];
            }
            const message = userMessageOf(err);
            if (message) {
              void vscode.window.showInformationMessage(`Proactive Context: ${message}`);
              return [];
            }
            throw err;
          }
        },
      );
      if (!proposals.length) {
        void vscode.window.showInformationMessage('The model proposed no decisions from your chat memory.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        proposals.map((p) => ({ label: p.title, detail: p.decision, p, picked: false })),
        { title: 'Review proposed decisions: pick the ones to record as ADRs', canPickMany: true },
      );
      if (!picked?.length) return;
      const written: string[] = [];
      for (const { p } of picked)
        written.push(
          await service.decisions.record({
            title: p.title,
            context: p.context,
            decision: p.decision,
            consequences: p.consequences,
          }),
        );
      void vscode.window.showInformationMessage(`Recorded ${written.join(', ')}.`);
    }),
  );
}

function metricsMarkdown(
  folder: string,
  m: ProviderMetrics,
  panelLatencies: readonly number[],
  service: ContextService,
): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    `# Proactive Context metrics — ${folder}`,
    '',
    '| Metric | Value |',
    '|---|---|',
    `| Suggestions generated | ${m.count} |`,
    `| Used rate | ${pct(m.usedRate)} |`,
    `| Dismissed rate | ${pct(m.dismissedRate)} |`,
    `| Suggestion latency p50 / p95 | ${m.latencyMs.p50.toFixed(1)} ms / ${m.latencyMs.p95.toFixed(1)} ms |`,
    `| Panel update after cursor stop p50 / p95 (this window) | ${panelLatencies.length ? `${percentile([...panelLatencies], 50).toFixed(1)} ms / ${percentile([...panelLatencies], 95).toFixed(1)} ms` : 'no data yet'} |`,
    '',
    '## By kind',
    '',
    '| Kind | Shown | Used | Dismissed |',
    '|---|---|---|---|',
    ...Object.entries(m.typeDistribution).map(([k, v]) => `| ${k} | ${v.shown} | ${v.used} | ${v.dismissed} |`),
    '',
    '## Score versus use',
    '',
    '| Score | Shown | Used | Used rate |',
    '|---|---|---|---|',
    ...m.scoreVersusUse.map((b) => `| ${b.bucket} | ${b.shown} | ${b.used} | ${pct(b.usedRate)} |`),
    '',
    `State directory: \`${service.stateDir}\``,
  ];
  return lines.join('\n') + '\n';
}
