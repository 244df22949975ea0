import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { settingsError } from './settingsJson';

export interface InstallOptions {
  host: string;
  scope: 'project' | 'user';
  root: string;
  /** How the host starts us: 'proactive-context', or 'node /path/dist/cli.js'. */
  command: string;
  home?: string;
}

export interface InstallReport {
  host: string;
  file: string;
  changed: boolean;
  /** Event names added or removed. */
  events: string[];
  lines: string[];
}

class HookInstallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HookInstallError';
  }
}

/** One event the host runs us for, and how its entry looks in the host's settings. */
interface EventSpec {
  event: string;
  entry: Record<string, unknown>;
  /** Claude Code groups entries under a matcher: `{ matcher, hooks: [entry] }`. */
  matcher?: string;
}

interface JsonTarget {
  kind: 'json';
  file: string;
  /** 'grouped': event → [{ matcher?, hooks: [entry] }] (Claude Code); 'flat': event → [entry] (VS Code, Copilot CLI). */
  shape: 'grouped' | 'flat';
  events: EventSpec[];
  /** Top-level fields a new file needs (Copilot CLI's version). */
  header?: Record<string, unknown>;
}

interface ScriptTarget {
  kind: 'scripts';
  dir: string;
  events: string[];
  script: string;
}

const SCRIPT_MARKER = '# proactive-context hook';
/** Seconds the host waits for us; our own budget is about one. */
const HOST_TIMEOUT_S = 5;

/** Adds our hook entries to the host's settings, keeping every other entry; idempotent. */
export function installHooks(o: InstallOptions): InstallReport {
  const target = targetOf(o);
  if (target.kind === 'scripts') return installScripts(o, target);
  const { data, existed } = readSettings(target.file);
  const hooks = objectField(data, 'hooks', target.file);
  const added: string[] = [];
  for (const spec of target.events) {
    const list = arrayField(hooks, spec.event, target.file);
    const ours =
      target.shape === 'grouped'
        ? { ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [spec.entry] }
        : spec.entry;
    // An entry of ours written before (an older, slower command) is replaced, not kept beside the new one.
    const next = [...list.flatMap((e) => withoutOurs(e, o.host)), ours];
    if (JSON.stringify(next) === JSON.stringify(list)) continue;
    hooks[spec.event] = next;
    added.push(spec.event);
  }
  if (!added.length) return report(o, target.file, false, [], `Already installed in ${target.file}; nothing changed.`);
  writeJson(target.file, { ...(existed ? {} : (target.header ?? {})), ...data, hooks });
  return report(
    o,
    target.file,
    true,
    added,
    `Added ${o.host} hooks for ${added.join(', ')} to ${target.file}${existed ? ' (other entries kept)' : ' (new file)'}.`,
  );
}

/** Removes only our entries (and the groups and lists they leave empty); idempotent. */
export function uninstallHooks(o: InstallOptions): InstallReport {
  const target = targetOf(o);
  if (target.kind === 'scripts') return uninstallScripts(o, target);
  if (!existsSync(target.file))
    return report(o, target.file, false, [], `${target.file} does not exist; nothing to remove.`);
  const { data } = readSettings(target.file);
  const hooks = objectField(data, 'hooks', target.file);
  const removed: string[] = [];
  for (const [event, value] of Object.entries(hooks)) {
    if (!Array.isArray(value)) continue;
    const kept = value.flatMap((e: unknown) => withoutOurs(e, o.host));
    if (kept.length === value.length && kept.every((k, i) => k === value[i])) continue;
    removed.push(event);
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  if (!removed.length)
    return report(o, target.file, false, [], `No ${o.host} hooks of ours in ${target.file}; nothing changed.`);
  if (!Object.keys(hooks).length) delete data.hooks;
  writeJson(target.file, data);
  return report(
    o,
    target.file,
    true,
    removed,
    `Removed our ${o.host} hooks for ${removed.join(', ')} from ${target.file} (other entries kept).`,
  );
}

function targetOf(o: InstallOptions): JsonTarget | ScriptTarget {
  const home = o.home ?? homedir();
  const run = (extra = ''): string => `${hookCommandOf(o.command, o.root)} --host ${o.host}${extra}`;
  switch (o.host) {
    case 'claude-code': {
      const entry = { type: 'command', command: run(), timeout: HOST_TIMEOUT_S };
      return {
        kind: 'json',
        file: join(o.scope === 'user' ? home : o.root, '.claude', 'settings.json'),
        shape: 'grouped',
        events: [
          { event: 'PreToolUse', matcher: 'Edit|Write|MultiEdit|NotebookEdit', entry },
          { event: 'UserPromptSubmit', entry },
          { event: 'SessionStart', entry },
        ],
      };
    }
    case 'vscode': {
      if (o.scope === 'user')
        throw new HookInstallError(
          "VS Code reads user hooks from ~/.claude/settings.json, which Claude Code shares: run 'hook install --host claude-code --scope user' (its answers suit VS Code too).",
        );
      const entry = { type: 'command', command: run(), timeout: HOST_TIMEOUT_S };
      return {
        kind: 'json',
        file: join(o.root, '.github', 'hooks', 'proactive-context.json'),
        shape: 'flat',
        events: ['PreToolUse', 'SessionStart', 'SubagentStart'].map((event) => ({ event, entry })),
      };
    }
    case 'copilot-cli': {
      const file =
        o.scope === 'user'
          ? join(home, '.copilot', 'hooks', 'proactive-context.json')
          : join(o.root, '.github', 'hooks', 'proactive-context-copilot-cli.json');
      const entry = { type: 'command', bash: run(' --event subagentStart'), timeoutSec: HOST_TIMEOUT_S };
      return { kind: 'json', file, shape: 'flat', events: [{ event: 'subagentStart', entry }], header: { version: 1 } };
    }
    case 'cline':
      return {
        kind: 'scripts',
        dir: o.scope === 'user' ? join(home, 'Documents', 'Cline', 'Hooks') : join(o.root, '.clinerules', 'hooks'),
        events: ['PreToolUse', 'UserPromptSubmit', 'TaskStart'],
        script: `#!/usr/bin/env sh\n${SCRIPT_MARKER} (remove with: proactive-context hook uninstall --host cline)\nexec ${run()}\n`,
      };
    case 'kiro':
      throw new HookInstallError(
        'Kiro keeps hooks inside each agent definition (.kiro/agents/NAME.json), which this command does not rewrite. Add to that agent\'s "hooks":\n' +
          JSON.stringify({ agentSpawn: [{ command: run() }], userPromptSubmit: [{ command: run() }] }, null, 2),
      );
    default:
      throw new HookInstallError(`no settings file is known for --host ${o.host}`);
  }
}

function installScripts(o: InstallOptions, t: ScriptTarget): InstallReport {
  // Check every file first: a foreign hook anywhere means nothing is written.
  const foreign = t.events.filter(
    (e) => existsSync(join(t.dir, e)) && !readFileSync(join(t.dir, e), 'utf8').includes(SCRIPT_MARKER),
  );
  if (foreign.length)
    throw new HookInstallError(
      `${join(t.dir, foreign[0])} is another hook (Cline runs one file per event); nothing was written. Merge by hand: add '${hookCommandOf(o.command, o.root)} --host cline' to it.`,
    );
  const added = t.events.filter(
    (e) => !existsSync(join(t.dir, e)) || readFileSync(join(t.dir, e), 'utf8') !== t.script,
  );
  mkdirSync(t.dir, { recursive: true });
  for (const e of added) {
    writeFileSync(join(t.dir, e), t.script);
    chmodSync(join(t.dir, e), 0o755);
  }
  if (!added.length) return report(o, t.dir, false, [], `Already installed in ${t.dir}; nothing changed.`);
  return report(o, t.dir, true, added, `Wrote ${added.map((e) => join(t.dir, e)).join(', ')}.`);
}

function uninstallScripts(o: InstallOptions, t: ScriptTarget): InstallReport {
  const ours = t.events.filter(
    (e) => existsSync(join(t.dir, e)) && readFileSync(join(t.dir, e), 'utf8').includes(SCRIPT_MARKER),
  );
  for (const e of ours) unlinkSync(join(t.dir, e));
  if (!ours.length) return report(o, t.dir, false, [], `No cline hooks of ours in ${t.dir}; nothing changed.`);
  return report(o, t.dir, true, ours, `Removed ${ours.map((e) => join(t.dir, e)).join(', ')}.`);
}

function report(o: InstallOptions, file: string, changed: boolean, events: string[], line: string): InstallReport {
  return { host: o.host, file, changed, events, lines: [line] };
}

/** The entry without our hook: [] when it was ours, the group without our command, or itself. */
function withoutOurs(entry: unknown, host: string): unknown[] {
  if (isOurs(entry, host)) return [];
  if (isObject(entry) && Array.isArray(entry.hooks) && entry.hooks.some((h) => isOurs(h, host))) {
    const hooks = entry.hooks.filter((h) => !isOurs(h, host));
    return hooks.length ? [{ ...entry, hooks }] : [];
  }
  return [entry];
}

/**
 * The fastest command that answers a hook, from how the host starts us: the thin launcher, which
 * asks a running server without loading the CLI (`proactive-context-hook`, or `dist/hook.js` beside
 * a given `dist/cli.js`); any other command gets its `hook` subcommand.
 */
export function hookCommandOf(command: string, root: string): string {
  if (command === 'proactive-context') return 'proactive-context-hook';
  const cli = command.slice(command.lastIndexOf(' ') + 1);
  if (basename(cli) === 'cli.js') {
    const launcher = join(dirname(cli), 'hook.js');
    if (existsSync(resolve(root, launcher))) return command.slice(0, command.length - cli.length) + launcher;
  }
  return `${command} hook`;
}

/** Ours: an entry whose command (or Copilot CLI's bash) runs `… hook --host <host>` or the launcher. */
function isOurs(entry: unknown, host: string): boolean {
  if (!isObject(entry)) return false;
  const cmd =
    typeof entry.command === 'string' ? entry.command : typeof entry.bash === 'string' ? entry.bash : undefined;
  return cmd !== undefined && [' hook', '-hook', 'hook.js'].some((c) => cmd.includes(`${c} --host ${host}`));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function readSettings(file: string): { data: Record<string, unknown>; existed: boolean } {
  if (!existsSync(file)) return { data: {}, existed: false };
  if (!statSync(file).isFile()) throw new HookInstallError(`${file} is not a file; nothing was written.`);
  const text = readFileSync(file, 'utf8');
  const problem = settingsError(text);
  if (problem) throw new HookInstallError(`${file}: ${problem}; nothing was written.`);
  const data: unknown = text.trim() ? JSON.parse(text) : {};
  if (!isObject(data)) throw new HookInstallError(`${file} does not hold a JSON object; nothing was written.`);
  return { data, existed: true };
}

function objectField(data: Record<string, unknown>, key: string, file: string): Record<string, unknown> {
  const v = data[key] ?? {};
  if (!isObject(v)) throw new HookInstallError(`${file}: "${key}" is not an object; nothing was written.`);
  return v;
}

function arrayField(data: Record<string, unknown>, key: string, file: string): unknown[] {
  const v = data[key] ?? [];
  if (!Array.isArray(v)) throw new HookInstallError(`${file}: "hooks.${key}" is not a list; nothing was written.`);
  return v;
}

/** Writes the whole file at once (temp file and rename), keeping the old file's mode. */
function writeJson(file: string, data: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const mode = statSync(file, { throwIfNoEntry: false })?.mode;
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', mode === undefined ? {} : { mode: mode & 0o777 });
  renameSync(tmp, file);
}
