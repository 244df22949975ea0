/** Every word the page shows that does not come from the host. */
import type { IndexingProgress, PanelCommandType, PanelPhase } from '../shared/protocol';

export interface PhaseMessage {
  icon: string;
  heading: string;
  detail: string;
  /** Whether the Settings button helps here. */
  settings: boolean;
}

/** What a non-ready phase tells the user, and what they can do about it. */
export function phaseMessage(phase: PanelPhase, file: string | undefined): PhaseMessage | undefined {
  switch (phase) {
    case 'empty':
      return {
        icon: 'lightbulb',
        heading: file ? `No suggestions for ${baseName(file)}` : 'No suggestions here',
        detail:
          'No decisions, recent changes, co-changing files, callers or docs point at this code yet. Move the cursor into a function, or open another file.',
        settings: true,
      };
    case 'no-workspace':
      return {
        icon: 'folder',
        heading: 'Open a folder to see suggestions',
        detail:
          'Suggestions come from the decisions, git history and docs of a workspace folder. Use File > Open Folder… and open a file in it.',
        settings: false,
      };
    case 'no-editor':
      return {
        icon: 'file',
        heading: 'Open a file to see suggestions',
        detail:
          'Suggestions follow the active editor: open a file of this workspace and place the cursor in the code you are working on.',
        settings: false,
      };
    case 'unsupported-document':
      return {
        icon: 'circle-slash',
        heading: 'No suggestions for this editor',
        detail: `Suggestions are shown for files inside the workspace folder${file ? `; ${baseName(file)} is not one of them` : ''}. Switch to a file of this workspace.`,
        settings: false,
      };
    case 'error':
      return {
        icon: 'error',
        heading: 'Suggestions could not be loaded',
        detail: 'Something went wrong while looking for context. Show Log for the details, then Refresh to try again.',
        settings: false,
      };
    default:
      return undefined;
  }
}

export const KEYBOARD_HELP = 'Enter opens. Delete dismisses. U marks useful, P pins to chat, C copies.';

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** The panel's buttons that ask the extension to do something. */
export const COMMAND_BUTTONS: Readonly<Record<PanelCommandType, { label: string; icon: string }>> = {
  refresh: { label: 'Refresh', icon: 'refresh' },
  showLog: { label: 'Show Log', icon: 'output' },
  openSettings: { label: 'Settings', icon: 'settings-gear' },
  recordDecision: { label: 'Record a Decision…', icon: 'law' },
  openDecisionSettings: { label: 'Choose Decision Folders…', icon: 'settings-gear' },
};

/** "Indexing 1,200 of 5,000 files", then "Reading history: 3,000 of 10,000 commits". */
export function indexingLabel(p: IndexingProgress): string {
  if (p.commits)
    return `Reading history: ${formatCount(p.commits.done)}${p.commits.total ? ` of ${formatCount(p.commits.total)}` : ''} commits`;
  return `Indexing ${formatCount(p.done)} of ${formatCount(p.total)} files`;
}
