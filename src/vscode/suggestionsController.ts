import * as vscode from 'vscode';
import type { ContextService } from '../core/api/contextService';
import { noDecisionRecords } from '../core/api/messages';
import type { ContextSuggestion, SuggestionItem } from '../core/api/types';
import type { PageCommand } from '../shared/protocol';
import type { Activity, ActivityEvent, ActivityTracker } from './activityTracker';
import { ids } from './ids';
import { openSuggestionItem } from './openItem';
import type { PerfProbe } from './perfProbe';
import { AnswerMemo, type AnswerPlace } from './rebuildHold';
import type { SuggestionsStatusBar } from './statusBar';
import { buildPanelState } from './views/panelModel';
import type { SuggestionsViewProvider } from './views/suggestionsView';
import type { WorkspaceServices } from './workspaceServices';

/**
 * The language-server extras start this long after the answer is on screen: the page gets the
 * answer without language-server traffic competing for the workbench, and a place the cursor
 * leaves sooner never asks the language server at all.
 */
const ENRICH_AFTER_MS = 150;

const NONE_MESSAGES: Record<Exclude<Activity, { kind: 'file' }>['reason'], string> = {
  'no-workspace': 'Open a folder to see the decisions, changes and warnings for your code.',
  'no-editor': 'Open a file of this workspace to see its context.',
  'other-editor': 'The editor in front is not a file; suggestions follow the next file you open.',
  'unsupported-document': 'This editor is not a file of the workspace, so there is no context to show.',
  'outside-workspace': 'This file is outside the workspace folders; open its folder to see its context.',
};

/**
 * Connects editor activity to the engine and the engine's results to the panel and status bar.
 * Holds the last suggestion so the panel's actions (open, useful, dismiss, pin, copy) apply to it.
 */
export class SuggestionsController implements vscode.Disposable {
  private last:
    | {
        suggestion: ContextSuggestion;
        service: ContextService;
        folder: vscode.WorkspaceFolder;
        activity: Extract<Activity, { kind: 'file' }>;
      }
    | undefined;
  private readonly useful = new Set<string>();
  private readonly dismissedHere = new Set<string>();
  private readonly pinned = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly panelLatencies: number[] = [];
  private suggestCount = 0;
  private readonly answers = new AnswerMemo<NonNullable<SuggestionsController['last']>>();

  constructor(
    private readonly services: WorkspaceServices,
    private readonly tracker: ActivityTracker,
    private readonly view: SuggestionsViewProvider,
    private readonly status: SuggestionsStatusBar,
    private readonly log: vscode.LogOutputChannel,
    private readonly subscribeItem: (service: ContextService, item: SuggestionItem) => Promise<void>,
    private readonly perf?: PerfProbe,
  ) {
    this.disposables.push(
      tracker.onDidChangeActivity((e) => {
        const end = this.perf?.begin('pass');
        e.waitUntil(this.onActivity(e).finally(() => end?.()));
      }),
      view.onDidReceiveCommand((c) => void this.onCommand(c)),
      view.onDidChangeVisibility((visible) => {
        if (visible && this.last) this.last.service.suggestions.markShown(this.last.suggestion.id);
      }),
    );
  }

  /** Milliseconds from the cursor stopping to the panel state being sent, most recent last. */
  get latencies(): readonly number[] {
    return this.panelLatencies;
  }

  /** How many times suggestions were computed (debounce and cancellation keep this low). */
  get runs(): number {
    return this.suggestCount;
  }

  /**
   * Keeps the panel's answers while the index is rebuilt (see AnswerMemo); call the returned
   * function when the rebuild has ended, then refresh.
   */
  holdAnswers(): () => void {
    return this.answers.begin();
  }

  /** The last suggestion when it is for this document: what the editor's hints reuse instead of asking again. */
  lastFor(
    uri: vscode.Uri,
  ): { suggestion: ContextSuggestion; service: ContextService; folder: vscode.WorkspaceFolder } | undefined {
    const last = this.last;
    return last && last.activity.uri.toString() === uri.toString()
      ? { suggestion: last.suggestion, service: last.service, folder: last.folder }
      : undefined;
  }

  // eslint-disable-next-line max-lines-per-function, complexity -- one pass from activity to panel: each early return drops a stale or empty pass
  private async onActivity(event: ActivityEvent): Promise<void> {
    const { activity, signal } = event;
    const stoppedAt = performance.now();
    if (activity.kind === 'none') {
      // A walkthrough, the settings or a preview in front: the last file's items stay, as the user
      // comes back to that file; with none yet, the panel asks calmly for a file.
      if (activity.reason === 'other-editor' && this.last) return;
      this.last = undefined;
      const phase =
        activity.reason === 'outside-workspace'
          ? 'unsupported-document'
          : activity.reason === 'other-editor'
            ? 'no-editor'
            : activity.reason;
      // The panel's own heading and detail say what to do; the host adds only what it knows of this editor.
      const message = activity.detail ? `${NONE_MESSAGES[activity.reason]} (${activity.detail})` : undefined;
      this.view.setState(buildPanelState({ phase, message }));
      this.status.showIdle(NONE_MESSAGES[activity.reason]);
      return;
    }
    let service: ContextService;
    try {
      service = await this.services.get(activity.folder);
    } catch (err) {
      this.fail(`Could not open the Proactive Context data for ${activity.folder.name}: ${(err as Error).message}`);
      return;
    }
    if (signal.aborted) return;
    const answerPlace: AnswerPlace = {
      key: `${activity.folder.uri.toString()}|${activity.path}`,
      line: activity.line,
      symbol: activity.symbol,
    };
    const held = this.answers.lookup(answerPlace);
    if (held) {
      // A rebuild runs: the answer given here before it, complete and for the right symbol.
      this.last = held.answer;
      this.render();
      return;
    }
    if (!this.last || this.last.activity.path !== activity.path) {
      this.dismissedHere.clear();
      // Keep the old items while the new ones load; say which file they are for.
      this.view.setState(
        buildPanelState({
          phase: 'loading',
          file: activity.path,
          symbol: activity.symbol?.name,
          indexing: service.workspace.indexingProgress,
        }),
      );
    }
    const place = {
      file: activity.path,
      line: activity.line,
      column: activity.column,
      selection: activity.selection,
      symbol: activity.symbol,
      recentFiles: activity.recentFiles,
    };
    let suggestion: ContextSuggestion;
    this.suggestCount++;
    try {
      // The engine's own answer at once; slow sources (language servers) enrich it afterwards.
      const end = this.perf?.begin('suggest');
      suggestion = await service.suggestions.suggestAt(place, { signal }).finally(() => end?.());
    } catch (err) {
      if (signal.aborted) return;
      this.fail((err as Error).message);
      return;
    }
    if (signal.aborted) return;
    this.last = { suggestion, service, folder: activity.folder, activity };
    const rendered = this.perf?.begin('render');
    this.render();
    rendered?.();
    this.answers.remember(answerPlace, this.last);
    // On screen: a newer place may take over from the enrichment below.
    event.shown();
    const elapsed = performance.now() - stoppedAt;
    this.panelLatencies.push(elapsed);
    if (this.panelLatencies.length > 200) this.panelLatencies.shift();
    this.log.trace(
      `Suggestions for ${activity.path}:${activity.line} in ${suggestion.latencyMs} ms (panel updated ${elapsed.toFixed(1)} ms after the cursor stopped)`,
    );
    if (this.view.visible) service.suggestions.markShown(suggestion.id);
    if (!service.suggestions.hasEnrichment) return;
    await new Promise((resolve) => setTimeout(resolve, ENRICH_AFTER_MS));
    if (signal.aborted) return;
    let enriched: ContextSuggestion | undefined;
    try {
      const end = this.perf?.begin('enrich');
      enriched = await service.suggestions.enrich(suggestion, { signal }).finally(() => end?.());
    } catch (err) {
      if (!signal.aborted) this.log.warn(`Language-server enrichment failed: ${(err as Error).message}`);
      return;
    }
    if (!enriched || signal.aborted || this.last?.suggestion !== suggestion) return;
    // Keep what the user already dismissed from the first answer out of the enriched one.
    const gone = new Set(this.dismissedHere);
    enriched.items = enriched.items.filter((i) => !gone.has(i.entityId));
    this.last = { suggestion: enriched, service, folder: activity.folder, activity };
    this.render();
    this.answers.remember(answerPlace, this.last);
    this.log.trace(
      `Language-server enrichment for ${activity.path}:${activity.line} done ${(performance.now() - stoppedAt).toFixed(1)} ms after the cursor stopped`,
    );
  }

  /** Re-renders the current suggestion (after dismiss/useful/pin, or indexing progress). */
  render(): void {
    if (!this.last) return;
    const { suggestion, activity, service } = this.last;
    const search = service.decisions.search();
    const state = buildPanelState({
      phase: 'ready',
      file: activity.path,
      symbol: activity.symbol?.name ?? suggestion.query.currentSymbol,
      items: suggestion.items,
      notes: suggestion.notes,
      indexing: service.workspace.indexingProgress,
      useful: this.useful,
      pinned: this.pinned,
      decisionHelp: search.records === 0 ? noDecisionRecords(search) : undefined,
    });
    this.view.setState(state);
    // The status bar counts what the panel lists: one item per entity, of the kinds the panel shows.
    const { total, warning } = state.counts;
    this.status.showCounts(activity.path, total - warning, warning);
  }

  private fail(message: string): void {
    this.log.error(message);
    this.view.setState(buildPanelState({ phase: 'error', message }));
    this.status.showError(message);
  }

  private async onCommand(command: PageCommand): Promise<void> {
    switch (command.type) {
      case 'refresh':
        this.tracker.refresh();
        return;
      case 'showLog':
        this.log.show(true);
        return;
      case 'openSettings':
        await vscode.commands.executeCommand(
          'workbench.action.openSettings',
          '@ext:proactive-context.proactive-context',
        );
        return;
      case 'openDecisionSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', `${ids.configSection}.decisionFolders`);
        return;
      case 'recordDecision':
        await vscode.commands.executeCommand(ids.command.recordDecision);
        return;
      case 'showWatch':
      case 'unwatch':
        // The Watching section's own controller handles these.
        return;
    }
    const last = this.last;
    const item = last?.suggestion.items.find((i) => i.entityId === command.entityId);
    if (!last || !item) {
      this.log.warn(`The panel asked for an item that is no longer shown (${command.entityId}).`);
      return;
    }
    const { service, suggestion, folder } = last;
    try {
      if (command.type === 'open' || command.type === 'useful' || command.type === 'dismiss')
        service.suggestions.keep(suggestion);
      switch (command.type) {
        case 'open':
          service.suggestions.feedback(suggestion.id, item.entityId, 'used');
          await openSuggestionItem(folder, item);
          void vscode.commands.executeCommand('setContext', ids.context.openedItem, true);
          return;
        case 'useful':
          service.suggestions.feedback(suggestion.id, item.entityId, 'used');
          this.useful.add(item.entityId);
          this.render();
          return;
        case 'dismiss':
          service.suggestions.feedback(suggestion.id, item.entityId, 'dismissed');
          this.dismissedHere.add(item.entityId);
          suggestion.items = suggestion.items.filter((i) => i.entityId !== item.entityId);
          this.render();
          return;
        case 'pin':
          await this.subscribeItem(service, item);
          this.pinned.add(item.entityId);
          this.render();
          return;
        case 'copy':
          await vscode.env.clipboard.writeText(copyText(item));
          vscode.window.setStatusBarMessage('$(copy) Copied to the clipboard', 2000);
          return;
      }
    } catch (err) {
      this.log.error(`Could not ${command.type} '${item.title}': ${(err as Error).message}`);
      void vscode.window.showErrorMessage(
        `Proactive Context: could not ${command.type} “${item.title}”: ${(err as Error).message}`,
      );
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

export function copyText(item: SuggestionItem): string {
  const where = item.location.line ? `${item.location.path}:${item.location.line}` : item.location.path;
  return [
    item.title,
    item.summary,
    `Why: ${item.reason}`,
    item.location.commit ? `Commit: ${item.location.commit}` : '',
    `Where: ${where}`,
  ]
    .filter(Boolean)
    .join('\n');
}
