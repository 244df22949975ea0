import * as vscode from 'vscode';
import type { Logger } from '../core/api/types';

/** The extension's single output channel, also handed to the core as its Logger port. */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Proactive Context', { log: true });
}

export function asLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: (m, ...a) => channel.trace(m, ...a),
    debug: (m, ...a) => channel.debug(m, ...a),
    info: (m, ...a) => channel.info(m, ...a),
    warn: (m, ...a) => channel.warn(m, ...a),
    error: (m, ...a) => channel.error(m, ...a),
  };
}
