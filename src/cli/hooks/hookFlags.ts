import { DEFAULT_HOOK_MAX_CHARS } from '../../core/api/hookLauncher';
import { DEFAULT_HTTP_PORT } from '../../mcp/httpPort';
import type { FlagSpec } from '../args';
import { HOST_IDS } from './hosts';

export const DEFAULT_HOOK_TIMEOUT_MS = 1000;

/** The `hook` command's flags: shared by the CLI and the thin launcher (dist/hook.js), which parse alike. */
export const HOOK_FLAGS: Record<string, FlagSpec> = {
  host: { type: 'string', value: 'H', description: `the agent host: ${HOST_IDS.join(', ')}` },
  event: {
    type: 'string',
    value: 'E',
    description: 'the hook event, for hosts whose input does not name it (copilot-cli)',
  },
  'max-chars': {
    type: 'number',
    value: 'N',
    description: `at most this many characters of context (default ${DEFAULT_HOOK_MAX_CHARS})`,
  },
  timeout: {
    type: 'number',
    value: 'MS',
    description: `answer within this long or not at all (default ${DEFAULT_HOOK_TIMEOUT_MS})`,
  },
  port: {
    type: 'number',
    value: 'P',
    description: `the port of a running 'mcp --http' (default: the one it publishes in the state directory, else ${DEFAULT_HTTP_PORT})`,
  },
  'no-server': { type: 'boolean', description: 'always answer in-process, never from a running server' },
  scope: { type: 'string', value: 'S', description: 'install/uninstall: project (default) or user settings' },
  command: {
    type: 'string',
    value: 'CMD',
    description:
      "install: how the host starts us (default 'proactive-context'); written as the thin launcher beside it when there is one",
  },
};
