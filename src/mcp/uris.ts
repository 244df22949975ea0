import { realpathSync } from 'node:fs';
import { isAbsolute, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { toRelative } from '../core/api/types';

/** The resources the server knows, as parsed from their URIs. */
export type ResourceRef =
  | { kind: 'subscriptions' }
  | { kind: 'subscription'; id: string }
  | { kind: 'suggestions'; path: string }
  | { kind: 'decisions' }
  | { kind: 'decision'; number: number }
  | { kind: 'file'; path: string }
  | { kind: 'watch'; id: string };

export const SUBSCRIPTIONS_URI = 'context://subscriptions';
export const DECISIONS_URI = 'context://decisions';

export const URI_TEMPLATES = {
  subscription: 'context://subscription/{id}',
  suggestions: 'context://suggestions/{+path}',
  decision: 'context://decision/{number}',
  file: 'context://file/{+path}',
  watch: 'context://watch/{id}',
} as const;

const ROOT_IS_NOT_A_FILE = 'The workspace root itself is not a file.';
const SUBSCRIPTION_PREFIX = 'context://subscription/';
const SUGGESTIONS_PREFIX = 'context://suggestions/';
const DECISION_PREFIX = 'context://decision/';
const FILE_PREFIX = 'context://file/';
const WATCH_PREFIX = 'context://watch/';

export function subscriptionUri(id: string): string {
  return SUBSCRIPTION_PREFIX + encodeURIComponent(id);
}

export function watchUri(id: string): string {
  return WATCH_PREFIX + encodeURIComponent(id);
}

export function suggestionsUri(relPath: string): string {
  return SUGGESTIONS_PREFIX + encodePath(relPath);
}

export function decisionUri(n: number): string {
  return DECISION_PREFIX + String(n);
}

export function fileUri(relPath: string): string {
  return FILE_PREFIX + encodePath(relPath);
}

function encodePath(relPath: string): string {
  return relPath.split('/').map(encodeURIComponent).join('/');
}

/**
 * A request the server refuses; answered as a JSON-RPC error with code -32602 (invalid params)
 * and this message. Tool handlers turn it into a tool error carrying the same message.
 */
export class InvalidParamsError extends Error {
  readonly code = ProtocolErrorCode.InvalidParams;
}

export function invalidParams(message: string): InvalidParamsError {
  return new InvalidParamsError(message);
}

/**
 * Parses a resource URI into what it names, refusing anything the server does not serve and any
 * path that would leave the workspace root. Throws an InvalidParams McpError with a plain reason.
 */
export function parseResourceUri(uri: string, root: string): ResourceRef {
  if (typeof uri !== 'string' || uri.length === 0) throw invalidParams('A resource URI is required.');
  if (uri.length > 4096) throw invalidParams('Resource URI is too long.');
  if (uri === SUBSCRIPTIONS_URI) return { kind: 'subscriptions' };
  if (uri === DECISIONS_URI) return { kind: 'decisions' };
  if (uri.startsWith(SUBSCRIPTION_PREFIX)) {
    const id = decodeSegment(uri.slice(SUBSCRIPTION_PREFIX.length), uri);
    if (!/^[A-Za-z0-9._:-]{1,128}$/.test(id)) throw invalidParams(`Not a subscription id in ${uri}.`);
    return { kind: 'subscription', id };
  }
  if (uri.startsWith(WATCH_PREFIX)) {
    const id = decodeSegment(uri.slice(WATCH_PREFIX.length), uri);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw invalidParams(`Not a watch id in ${uri}.`);
    return { kind: 'watch', id };
  }
  if (uri.startsWith(DECISION_PREFIX)) {
    const raw = uri.slice(DECISION_PREFIX.length);
    if (!/^\d{1,6}$/.test(raw)) throw invalidParams(`Decision URIs end with a decision number: ${uri}.`);
    return { kind: 'decision', number: Number(raw) };
  }
  if (uri.startsWith(SUGGESTIONS_PREFIX))
    return { kind: 'suggestions', path: confineUriPath(uri.slice(SUGGESTIONS_PREFIX.length), uri) };
  if (uri.startsWith(FILE_PREFIX)) return { kind: 'file', path: confineUriPath(uri.slice(FILE_PREFIX.length), uri) };
  if (uri.startsWith('file:')) return { kind: 'file', path: fileUrlToRelative(uri, root) };
  throw invalidParams(
    `Unknown resource ${uri}. Known: ${SUBSCRIPTIONS_URI}, ${DECISIONS_URI}, ${Object.values(URI_TEMPLATES).join(', ')}, file:/// inside the workspace.`,
  );
}

function decodeSegment(raw: string, uri: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw invalidParams(`Malformed percent-encoding in ${uri}.`);
  }
}

function confineUriPath(raw: string, uri: string): string {
  if (/[?#]/.test(raw)) throw invalidParams(`Query and fragment are not supported in ${uri}.`);
  return confineRelativePath(decodeSegment(raw, uri));
}

/**
 * Checks a root-relative path given by a client and returns it normalized (forward slashes, no
 * `./`). Absolute paths, `..` segments, backslashes and NUL bytes are refused outright rather than
 * resolved, so nothing a client sends can point outside the root.
 */
export function confineRelativePath(input: string): string {
  if (typeof input !== 'string' || input.trim() === '') throw invalidParams('A path is required.');
  if (input.includes('\0')) throw invalidParams('Paths cannot contain NUL bytes.');
  if (input.includes('\\')) throw invalidParams(`Use forward slashes in paths: ${input}.`);
  if (posix.isAbsolute(input) || /^[A-Za-z]:/.test(input))
    throw invalidParams(`Path ${input} must be relative to the workspace root.`);
  if (input.split('/').includes('..')) throw invalidParams(`Path ${input} is outside the workspace root.`);
  const norm = withoutTrailingSlashes(posix.normalize(input).replace(/^(\.\/)+/, ''));
  if (norm === '' || norm === '.') throw invalidParams(ROOT_IS_NOT_A_FILE);
  return norm;
}

/** Drops trailing slashes by index: `/\/+$/` backtracks quadratically on a long run of slashes not at the end. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

/**
 * A path given to a tool: root-relative, or absolute but inside the root (agents often send
 * absolute paths). Returns the normalized root-relative form or throws InvalidParams.
 */
export function workspacePathFromInput(input: string, root: string): string {
  if (typeof input === 'string' && isAbsolute(input)) {
    const rel = toRelative(root, input) ?? toRelative(realRoot(root), input);
    if (rel === undefined) throw invalidParams(`Path ${input} is outside the workspace root.`);
    if (rel === '') throw invalidParams(ROOT_IS_NOT_A_FILE);
    return confineRelativePath(rel);
  }
  return confineRelativePath(input);
}

function fileUrlToRelative(uri: string, root: string): string {
  let abs: string;
  try {
    const url = new URL(uri);
    if (url.search || url.hash) throw invalidParams(`Query and fragment are not supported in ${uri}.`);
    if (url.hostname && url.hostname !== 'localhost') throw invalidParams(`Only local file URIs are served: ${uri}.`);
    // The URL parser already folds `.`, `..` and their percent-encoded forms.
    abs = fileURLToPath(url);
  } catch (err) {
    if (err instanceof InvalidParamsError) throw err;
    throw invalidParams(`Malformed file URI ${uri}: ${(err as Error).message}`);
  }
  const rel = toRelative(root, abs) ?? toRelative(realRoot(root), abs);
  if (rel === undefined) throw invalidParams(`${uri} is outside the workspace root.`);
  if (rel === '') throw invalidParams(ROOT_IS_NOT_A_FILE);
  return confineRelativePath(rel);
}

const realRoots = new Map<string, string>();
function realRoot(root: string): string {
  let real = realRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync(root);
    } catch {
      real = resolve(root);
    }
    realRoots.set(root, real);
  }
  return real;
}
