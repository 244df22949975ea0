/** The typed slice of the API VS Code gives a webview page. */
import type { PageMessage } from '../shared/protocol';

export interface WebviewApi<S> {
  postMessage(message: PageMessage): void;
  getState(): S | undefined;
  setState(state: S): void;
}

declare function acquireVsCodeApi<S>(): WebviewApi<S>;

/** May only be called once per page load. */
export function getVsCodeApi<S>(): WebviewApi<S> {
  return acquireVsCodeApi<S>();
}
