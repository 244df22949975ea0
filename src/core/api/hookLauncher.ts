/**
 * The hook launcher's own door: the few names a warm hook needs, from modules that load nothing
 * else. The launcher runs on every agent edit, and the service's door modules would pull the store
 * and the parsers into its bundle.
 */
export { DEFAULT_HOOK_MAX_CHARS, nullLogger, resolveStateDir, StderrLogger, type Logger } from '../prompt/agentHooks';
