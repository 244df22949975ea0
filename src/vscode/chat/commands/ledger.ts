import * as vscode from 'vscode';
import { NO_LEDGER, renderLedgerReport } from '../chatText';
import { turnMetadata, type Turn } from '../turn';

/** `/ledger`: what the last answer's prompt held, and what was cut to fit. */
export function ledger(t: Turn): void {
  for (let i = t.chatContext.history.length - 1; i >= 0; i--) {
    const turn = t.chatContext.history[i];
    if (!(turn instanceof vscode.ChatResponseTurn)) continue;
    const m = turnMetadata(turn.result);
    if (m?.ledger) {
      t.stream.markdown(renderLedgerReport(m.ledger, m.ledgerAt ?? Date.now()));
      return;
    }
  }
  t.stream.markdown(NO_LEDGER);
}
