/**
 * The Suggestions page: renders the host's PanelState and turns clicks and keys into commands. It keeps
 * only view details of its own (expanded groups, focused row, scroll position) in the webview state,
 * so they survive the page being rebuilt each time the view is shown.
 */
import {
  type SuggestionType,
  PANEL_ITEM_TYPES,
  isHostMessage,
  itemCommand,
  panelCommand,
  readyMessage,
  type ItemCommandType,
  type PanelCommandType,
  type PanelState,
} from '../shared/protocol';
import { clear, codicon, el } from './dom';
import { commandButton, emptySections, inlineCode, itemRow } from './elements';
import { sharedReason } from '../shared/presentation';
import { KINDS, countOf } from '../shared/kinds';
import { KEYBOARD_HELP, baseName, dirName, indexingLabel, phaseMessage } from './labels';
import { renderWatching } from './watching';
import type { WebviewApi } from './vscodeApi';
import { type PageState, firstState, restorePageState } from './pageState';

/** Items shown per group before "Show N more". */
export const VISIBLE_PER_GROUP = 3;

const HELP_ID = 'pc-keyboard-help';

const KEY_ACTIONS: Readonly<Record<string, ItemCommandType>> = {
  Enter: 'open',
  Delete: 'dismiss',
  Backspace: 'dismiss',
  u: 'useful',
  U: 'useful',
  p: 'pin',
  P: 'pin',
  c: 'copy',
  C: 'copy',
};

export class Panel {
  private state: PanelState | undefined;
  private page: PageState;
  private rejected = 0;
  private scrollRestored = false;
  private scrollFrame = 0;
  private messaged = false;
  private drewItems = false;

  private readonly progress = el('div', { class: 'progress', hidden: true }, el('div', { class: 'progress-bit' }));
  private readonly header = el('header', { class: 'header', hidden: true });
  private readonly notes = el('div', { class: 'notes', role: 'status', hidden: true });
  private readonly content = el('main', { class: 'content' });
  private readonly watching = el('section', { class: 'watching', 'aria-label': 'Watching', hidden: true });
  private list: HTMLElement | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly api: WebviewApi<PageState>,
  ) {
    this.page = restorePageState(api.getState());
  }

  start(): void {
    this.root.replaceChildren(
      this.progress,
      this.header,
      this.notes,
      this.content,
      this.watching,
      el('div', { id: HELP_ID, class: 'visually-hidden' }, KEYBOARD_HELP),
    );
    window.addEventListener('message', (event: MessageEvent) => this.receive(event.data));
    window.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // "Focus on Suggestions View" focuses the page: the keyboard goes to the current item at once,
    // so the arrow keys work without a Tab first.
    window.addEventListener('focus', () => this.focusList());
    this.content.addEventListener('click', (event) => this.onClick(event));
    this.content.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.content.addEventListener('focusin', (event) => this.onFocusIn(event));
    const first = firstState(this.page, document);
    if (first) {
      performance.mark('pc-initial-state');
      this.state = first;
      this.save();
      this.render();
    }
    // The editor benchmark reads these marks (and the host's) to split a cold open into its steps.
    performance.mark('pc-ready-sent');
    this.api.postMessage(readyMessage());
  }

  receive(data: unknown): void {
    if (!isHostMessage(data)) {
      this.rejected++;
      document.body.dataset.rejectedMessages = String(this.rejected);
      return;
    }
    if (data.type === 'state') {
      if (!this.messaged) performance.mark('pc-first-state');
      this.messaged = true;
      this.state = data.state;
      this.page.last = data.state;
      this.save();
      this.render();
    } else if (this.state) {
      const next: PanelState = { ...this.state };
      if (data.progress) next.indexing = data.progress;
      else delete next.indexing;
      this.state = next;
      this.page.last = next;
      this.save();
      this.renderProgress();
      this.renderHeader();
    }
  }

  // ---- rendering

  private render(): void {
    const s = this.state;
    if (!s) return;
    const rowsBefore = this.rows();
    const active = document.activeElement;
    const hadFocus = !!this.list && !!active && this.list.contains(active);
    const oldPosition = hadFocus ? rowsBefore.findIndex((r) => r.contains(active)) : -1;

    this.renderProgress();
    this.renderHeader();
    this.renderNotes();
    this.renderContent();
    renderWatching(this.watching, s.watches, (command) => this.api.postMessage(command));

    document.body.dataset.phase = s.phase;
    document.body.dataset.itemCount = String(s.items.length);
    if (s.items.length && !this.drewItems) {
      this.drewItems = true;
      performance.mark('pc-first-items');
    }
    this.restoreRoving(hadFocus, oldPosition);
    if (!this.scrollRestored && s.items.length > 0) {
      this.scrollRestored = true;
      if (this.page.scrollY > 0) window.scrollTo(0, this.page.scrollY);
    }
  }

  private renderProgress(): void {
    const s = this.state;
    const commits = s?.indexing?.commits;
    if (commits && commits.total > 0) {
      this.determinate(commits.done, commits.total, 'Reading the git history');
    } else if (s?.indexing && (s.indexing.total > 0 || commits)) {
      const { done, total } = s.indexing;
      this.determinate(done, total, 'Indexing the workspace');
    } else if (s?.phase === 'loading') {
      this.progress.hidden = false;
      this.progress.className = 'progress indeterminate';
      this.progress.setAttribute('role', 'progressbar');
      this.progress.setAttribute('aria-label', 'Looking for suggestions');
      for (const a of ['aria-valuemin', 'aria-valuemax', 'aria-valuenow']) this.progress.removeAttribute(a);
      (this.progress.firstElementChild as HTMLElement).style.width = '';
    } else {
      this.progress.hidden = true;
      this.progress.removeAttribute('role');
    }
  }

  private determinate(done: number, total: number, label: string): void {
    const bit = this.progress.firstElementChild as HTMLElement;
    this.progress.hidden = false;
    this.progress.className = 'progress determinate';
    this.progress.setAttribute('role', 'progressbar');
    this.progress.setAttribute('aria-label', label);
    this.progress.setAttribute('aria-valuemin', '0');
    this.progress.setAttribute('aria-valuemax', String(total));
    this.progress.setAttribute('aria-valuenow', String(Math.min(done, total)));
    bit.style.width = `${total ? Math.round((Math.min(done, total) / total) * 100) : 0}%`;
  }

  private renderHeader(): void {
    const s = this.state;
    clear(this.header);
    if (!s) return;
    if (s.file) {
      const dir = dirName(s.file);
      this.header.append(
        el(
          'div',
          { class: 'header-row header-file', title: s.file },
          codicon('file'),
          el('span', { class: 'header-name' }, baseName(s.file)),
          dir ? el('span', { class: 'header-description' }, dir) : null,
        ),
      );
    }
    if (s.symbol) {
      this.header.append(
        el(
          'div',
          { class: 'header-row header-symbol', title: s.symbol },
          codicon('symbol-method'),
          el('span', { class: 'header-name' }, s.symbol),
        ),
      );
    }
    if (s.indexing && (s.indexing.total > 0 || s.indexing.commits)) {
      this.header.append(
        el(
          'div',
          { class: 'header-row header-indexing' },
          codicon('sync', 'codicon-modifier-spin'),
          el('span', {}, indexingLabel(s.indexing)),
        ),
      );
    }
    this.header.hidden = this.header.childElementCount === 0;
  }

  private renderNotes(): void {
    const s = this.state;
    clear(this.notes);
    for (const note of s?.notes ?? []) {
      this.notes.append(el('div', { class: 'note' }, codicon('info'), el('span', {}, note)));
    }
    this.notes.hidden = this.notes.childElementCount === 0;
  }

  private renderContent(): void {
    const s = this.state;
    this.list = undefined;
    if (!s) return;
    const message = phaseMessage(s.phase, s.file);
    if (message) {
      // Only a failure or an empty answer has something to retry or tune; waiting for a folder or a
      // file is a calm state, with nothing that looks like an error to press.
      const buttons: PanelCommandType[] =
        s.phase === 'error' ? ['showLog', 'refresh'] : s.phase === 'empty' ? ['refresh', 'showLog'] : [];
      if (message.settings) buttons.push('openSettings');
      this.content.replaceChildren(
        el(
          'div',
          { class: `message message-${s.phase}`, role: s.phase === 'error' ? 'alert' : 'status' },
          codicon(message.icon, 'message-icon'),
          el('h2', { class: 'message-heading' }, message.heading),
          el('p', { class: 'message-detail' }, message.detail),
          s.message ? el('p', { class: 'message-host' }, s.message) : null,
          buttons.length
            ? el('div', { class: 'message-buttons' }, ...buttons.map((b, i) => commandButton(b, i === 0)))
            : null,
        ),
        ...(s.phase === 'empty' ? Object.values(emptySections(s)).flat() : []),
      );
      return;
    }
    if (s.items.length === 0) {
      this.content.replaceChildren(el('p', { class: 'placeholder', role: 'status' }, 'Looking for context…'));
      return;
    }
    this.list = this.buildList(s);
    const { decisions, others } = emptySections(s);
    this.content.replaceChildren(...decisions, this.list, ...others);
  }

  private buildList(s: PanelState): HTMLElement {
    const label = s.file ? `Suggestions for ${baseName(s.file)}` : 'Suggestions';
    const list = el('div', { class: 'list', role: 'listbox', 'aria-label': label, 'aria-describedby': HELP_ID });
    for (const type of PANEL_ITEM_TYPES) {
      const items = s.items.filter((i) => i.type === type).sort((a, b) => a.index - b.index);
      if (items.length === 0) continue;
      const group = KINDS[type];
      const expanded = this.page.expanded.includes(type);
      // A weaker link below the group's best waits for "Show N more".
      const first = items.filter((i) => i.folded !== true).slice(0, VISIBLE_PER_GROUP);
      const shown = expanded ? items : first;
      const headerId = `pc-group-${type}`;
      // A reason every item gives (each caller "calls X (resolved through imports)") is said once.
      const shared = sharedReason(items);
      const reasonId = `pc-group-reason-${type}`;
      const section = el(
        'div',
        {
          class: 'group',
          role: 'group',
          'aria-labelledby': headerId,
          'aria-describedby': shared ? reasonId : undefined,
          'data-group': type,
        },
        el(
          'div',
          { class: 'group-header', id: headerId },
          codicon(group.icon, 'group-icon'),
          el('span', { class: 'group-title' }, group.title),
          el(
            'span',
            {
              class: 'badge',
              'aria-label': countOf(type, items.length),
            },
            String(items.length),
          ),
        ),
        shared
          ? el('div', { class: 'group-reason', id: reasonId, 'aria-hidden': 'true' }, ...inlineCode(shared))
          : null,
        ...shown.map((item) => itemRow(item, shared)),
      );
      const hidden = items.length - first.length;
      if (hidden > 0) {
        const text = expanded ? 'Show fewer' : `Show ${hidden} more`;
        section.append(
          el(
            'div',
            {
              class: 'more',
              role: 'option',
              tabindex: -1,
              'aria-selected': 'false',
              'aria-expanded': String(expanded),
              'aria-label': expanded ? `Show fewer ${group.plural}` : `Show ${hidden} more ${group.plural}`,
              'data-more': type,
            },
            codicon(expanded ? 'chevron-up' : 'chevron-down'),
            el('span', {}, text),
          ),
        );
      }
      list.append(section);
    }
    return list;
  }

  // ---- roving focus

  /** Puts the keyboard on the list's current row when the page gets focus and nothing in it has it. */
  private focusList(): void {
    const active = document.activeElement;
    if (active && active !== document.body && active !== document.documentElement) return;
    const rows = this.rows();
    if (rows.length === 0) return;
    this.setCurrent(rows.find((r) => r.tabIndex === 0) ?? rows[0], true);
  }

  private rows(): HTMLElement[] {
    return this.list ? Array.from(this.list.querySelectorAll<HTMLElement>('.item, .more')) : [];
  }

  private restoreRoving(hadFocus: boolean, oldPosition: number): void {
    const rows = this.rows();
    if (rows.length === 0) return;
    let current = rows.find((r) => rowKey(r) === this.page.focusedId);
    if (!current && hadFocus && oldPosition >= 0) current = rows[Math.min(oldPosition, rows.length - 1)];
    this.setCurrent(current ?? rows[0], hadFocus, current !== undefined);
  }

  /** Makes `row` the one tab stop of the list; `remember` keeps it across page rebuilds. */
  private setCurrent(row: HTMLElement, focus: boolean, remember = true): void {
    for (const r of this.rows()) {
      const isCurrent = r === row;
      r.tabIndex = isCurrent ? 0 : -1;
      r.setAttribute('aria-selected', String(isCurrent));
      r.classList.toggle('current', isCurrent && remember);
    }
    if (focus) row.focus({ preventScroll: false });
    if (remember) {
      const key = rowKey(row);
      if (key !== this.page.focusedId) {
        this.page.focusedId = key;
        this.save();
      }
    }
  }

  private onFocusIn(event: FocusEvent): void {
    const row = (event.target as Element | null)?.closest<HTMLElement>('.item, .more');
    if (row && (row.tabIndex !== 0 || !row.classList.contains('current'))) this.setCurrent(row, false);
  }

  // ---- input

  private onClick(event: MouseEvent): void {
    const target = event.target as Element | null;
    if (!target) return;
    const command = target.closest<HTMLElement>('[data-command]');
    if (command) {
      this.api.postMessage(panelCommand(command.dataset.command as PanelCommandType));
      return;
    }
    const more = target.closest<HTMLElement>('.more');
    if (more) {
      this.toggleGroup(more.dataset.more as SuggestionType, true);
      return;
    }
    const row = target.closest<HTMLElement>('.item');
    if (!row) return;
    const action = target.closest<HTMLElement>('[data-action]');
    this.setCurrent(row, true);
    this.postItem((action?.dataset.action as ItemCommandType | undefined) ?? 'open', row);
  }

  private onKeyDown(event: KeyboardEvent): void {
    const row = (event.target as Element | null)?.closest<HTMLElement>('.item, .more');
    if (!row || event.altKey || event.ctrlKey || event.metaKey) return;
    const rows = this.rows();
    const at = rows.indexOf(row);
    let next: HTMLElement | undefined;
    switch (event.key) {
      case 'ArrowDown':
        next = rows[Math.min(at + 1, rows.length - 1)];
        break;
      case 'ArrowUp':
        next = rows[Math.max(at - 1, 0)];
        break;
      case 'Home':
        next = rows[0];
        break;
      case 'End':
        next = rows[rows.length - 1];
        break;
    }
    if (next) {
      event.preventDefault();
      this.setCurrent(next, true);
      return;
    }
    if (row.classList.contains('more')) {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        this.toggleGroup(row.dataset.more as SuggestionType, true);
      }
      return;
    }
    const action = KEY_ACTIONS[event.key];
    if (action) {
      event.preventDefault();
      this.postItem(action, row);
    }
  }

  private postItem(action: ItemCommandType, row: HTMLElement): void {
    const entityId = row.dataset.entityId;
    if (entityId) this.api.postMessage(itemCommand(action, entityId));
  }

  private toggleGroup(type: SuggestionType, keepFocus: boolean): void {
    if (!PANEL_ITEM_TYPES.includes(type)) return;
    const expanded = new Set(this.page.expanded);
    if (expanded.has(type)) expanded.delete(type);
    else expanded.add(type);
    this.page.expanded = PANEL_ITEM_TYPES.filter((t) => expanded.has(t));
    this.page.focusedId = `more:${type}`;
    this.save();
    this.renderContent();
    this.restoreRoving(keepFocus, -1);
  }

  private onScroll(): void {
    if (this.scrollFrame) return;
    this.scrollFrame = requestAnimationFrame(() => {
      this.scrollFrame = 0;
      this.page.scrollY = Math.round(window.scrollY);
      this.save();
    });
  }

  private save(): void {
    this.api.setState(this.page);
  }
}

function rowKey(row: HTMLElement): string {
  return row.dataset.entityId ?? `more:${row.dataset.more ?? ''}`;
}
