import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ContextService } from '../../core/api/contextService';
import type { Logger } from '../../core/api/types';
import type { JsonRoute } from '../../mcp/httpServer';
import { runHook } from './hookRunner';
import { hostAdapter } from './hosts';

const MAX_TIMEOUT_MS = 60_000;
const MAX_CHARS = 100_000;

/**
 * The hook endpoint of a long-lived process: one POST with the host's input, answered from the open
 * engine (its decision records, index and history already in memory) with what the host prints.
 * Behind the HTTP server's token and Host/Origin checks; a request for another workspace is refused.
 */
export function hookRoute(service: ContextService, logger: Logger): JsonRoute {
  return async (body) => {
    const bad = (error: string): { status: number; body: unknown } => ({ status: 400, body: { error } });
    if (!body || typeof body !== 'object' || Array.isArray(body)) return bad('the body is not a JSON object');
    const r = body as Record<string, unknown>;
    const host = typeof r.host === 'string' ? hostAdapter(r.host) : undefined;
    if (!host) return bad(`unknown host ${JSON.stringify(r.host ?? null)}`);
    if (typeof r.input !== 'string') return bad("input must be a string (the host's hook input)");
    if (r.event !== undefined && typeof r.event !== 'string') return bad('event must be a string');
    if (typeof r.root !== 'string' || !r.root) return bad('root must be the workspace folder');
    if (!wholeIn(r.maxChars, 1, MAX_CHARS)) return bad(`maxChars must be a whole number from 1 to ${MAX_CHARS}`);
    if (!wholeIn(r.timeoutMs, 1, MAX_TIMEOUT_MS))
      return bad(`timeoutMs must be a whole number from 1 to ${MAX_TIMEOUT_MS}`);
    if (r.parentPid !== undefined && !wholeIn(r.parentPid, 1, 2 ** 31)) return bad('parentPid must be a process id');
    if (realPath(r.root) !== realPath(service.root))
      return { status: 409, body: { error: `This server answers for ${service.root}, not ${r.root}.` } };
    const result = await runHook({
      host,
      input: r.input,
      event: r.event,
      root: service.root,
      stateDir: service.stateDir,
      maxChars: r.maxChars,
      timeoutMs: r.timeoutMs,
      parentPid: r.parentPid,
      service,
      logger,
    });
    if (result.note) logger.debug(`hook: ${result.note}`);
    return { status: 200, body: { stdout: result.stdout, event: result.event, note: result.note } };
  };
}

function wholeIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

function realPath(p: string): string {
  try {
    return realpathSync(resolve(p));
  } catch {
    return resolve(p);
  }
}
