import * as vscode from 'vscode';
import type { ContextService } from '../../core/api/contextService';
import { failureMessage } from './hintText';
import type { WorkspaceServices } from '../workspaceServices';

/** How often the reports' ages in the messages are brought up to date while failures are shown. */
const AGE_REFRESH_MS = 60_000;

/**
 * Failing tests from the workspace's test reports, in the Problems view: at the test and at the
 * source lines its stack passes through, with the report and its age. They go when the report
 * goes green or is deleted (the report source re-reads reports when they change on disk).
 */
export class TestDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('proactive-context-tests');
  /** Per workspace folder: the documents it set problems on, and what they said. */
  private readonly shown = new Map<string, { uris: vscode.Uri[]; fingerprint: string }>();
  private readonly disposables: vscode.Disposable[] = [this.collection];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly services: WorkspaceServices,
    private readonly enabled: () => boolean,
  ) {
    this.disposables.push(
      services.onDidOpen(({ folder, service }) => {
        service.workspace.onDidChangeWorkspaceData(() => this.refresh(folder, service));
        this.refresh(folder, service);
      }),
    );
  }

  /** Shows the folder's failing tests now (or clears them when the setting is off). */
  refresh(folder: vscode.WorkspaceFolder, service: ContextService): void {
    const failures = this.enabled() ? service.suggestions.failingTests() : [];
    const now = Date.now();
    const byUri = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }>();
    const at = (path: string) => {
      const uri = vscode.Uri.joinPath(folder.uri, ...path.split('/'));
      let entry = byUri.get(uri.toString());
      if (!entry) byUri.set(uri.toString(), (entry = { uri, diagnostics: [] }));
      return entry;
    };
    for (const f of failures) {
      const report = vscode.Uri.joinPath(folder.uri, ...f.report.split('/'));
      const reportLocation = new vscode.Location(report, new vscode.Position(Math.max(0, f.reportLine - 1), 0));
      if (f.test) {
        const d = diagnostic(f.test.line, failureMessage(f, 'test', now), report);
        d.relatedInformation = [
          new vscode.DiagnosticRelatedInformation(reportLocation, `Reported in ${f.report}`),
          ...f.sources.map((s) => related(folder, s, 'The stack passes through here')),
        ];
        at(f.test.path).diagnostics.push(d);
      }
      for (const s of f.sources) {
        const d = diagnostic(s.line, failureMessage(f, 'source', now), report);
        d.relatedInformation = [
          ...(f.test ? [related(folder, f.test, 'The failing test')] : []),
          new vscode.DiagnosticRelatedInformation(reportLocation, `Reported in ${f.report}`),
        ];
        at(s.path).diagnostics.push(d);
      }
    }
    const key = folder.uri.toString();
    const fingerprint = [...byUri.values()]
      .map(
        (e) =>
          `${e.uri.toString()}\u0000${e.diagnostics.map((d) => `${d.range.start.line}:${d.message}`).join('\u0001')}`,
      )
      .join('\u0002');
    const before = this.shown.get(key);
    if (before?.fingerprint === fingerprint) return;
    for (const uri of before?.uris ?? []) this.collection.delete(uri);
    for (const e of byUri.values()) this.collection.set(e.uri, e.diagnostics);
    this.shown.set(key, { uris: [...byUri.values()].map((e) => e.uri), fingerprint });
    this.keepAgesCurrent();
  }

  /** Re-reads every open folder (a setting changed). */
  async refreshAll(): Promise<void> {
    for (const { folder, service } of await this.services.opened()) this.refresh(folder, service);
  }

  /** The problems this shows for a document (for tests). */
  problemsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  /** Runs a slow timer only while some failure is shown, so "5 min ago" does not stay that forever. */
  private keepAgesCurrent(): void {
    const any = [...this.shown.values()].some((s) => s.uris.length > 0);
    if (any && !this.timer) {
      this.timer = setInterval(() => void this.refreshAll(), AGE_REFRESH_MS);
      this.timer.unref?.();
    } else if (!any && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

function diagnostic(line: number, message: string, report: vscode.Uri): vscode.Diagnostic {
  const d = new vscode.Diagnostic(
    new vscode.Range(line - 1, 0, line - 1, Number.MAX_SAFE_INTEGER),
    message,
    vscode.DiagnosticSeverity.Warning,
  );
  d.source = 'Proactive Context';
  d.code = { value: 'failing test', target: report };
  return d;
}

function related(
  folder: vscode.WorkspaceFolder,
  site: { path: string; line: number },
  message: string,
): vscode.DiagnosticRelatedInformation {
  return new vscode.DiagnosticRelatedInformation(
    new vscode.Location(
      vscode.Uri.joinPath(folder.uri, ...site.path.split('/')),
      new vscode.Position(site.line - 1, 0),
    ),
    message,
  );
}
