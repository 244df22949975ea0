/**
 * The panel's Watching section: each watch, what it follows and its latest firing. Clicking a watch
 * shows what it pushed; the eye button stops it. Text goes through `el` only (never markup).
 */
import { watchCommand, type PanelWatch, type WatchCommand } from '../shared/protocol';
import { clear, codicon, el } from './dom';

export function renderWatching(
  section: HTMLElement,
  watches: readonly PanelWatch[] | undefined,
  post: (command: WatchCommand) => void,
): void {
  clear(section);
  section.hidden = !watches?.length;
  if (!watches?.length) return;
  const unseen = watches.filter((w) => w.last?.unseen).length;
  section.append(
    el(
      'div',
      { class: 'group-header watching-header' },
      codicon('eye', 'group-icon'),
      el('span', { class: 'group-title' }, 'Watching'),
      el(
        'span',
        {
          class: 'badge',
          'aria-label': `${watches.length} watch${watches.length === 1 ? '' : 'es'}${unseen ? `, ${unseen} with new context` : ''}`,
        },
        String(watches.length),
      ),
    ),
  );
  const list = el('div', { class: 'watch-list', role: 'list' });
  for (const w of watches) list.append(watchRow(w, post));
  section.append(list);
}

function watchRow(w: PanelWatch, post: (command: WatchCommand) => void): HTMLElement {
  const last = w.last;
  const detail = last
    ? `${last.age} · ${last.trigger} · ${last.items} item${last.items === 1 ? '' : 's'}`
    : 'has not fired yet';
  const spoken = `Watching ${w.label}. ${last ? `Last fired ${detail}: ${last.summary}` : 'It has not fired yet'}.`;
  const show = el(
    'button',
    {
      class: 'watch-main',
      type: 'button',
      'aria-label': spoken,
      title: last ? `${last.summary}\n${detail}` : w.label,
      disabled: !last,
    },
    el(
      'div',
      { class: 'item-title' },
      last?.unseen ? el('span', { class: 'new-marker', 'aria-hidden': 'true' }, 'new') : null,
      w.label,
    ),
    el(
      'div',
      { class: 'item-detail' },
      el('span', { class: 'item-reason' }, last ? `${last.summary}` : detail),
      last ? el('span', { class: 'item-age' }, detail) : null,
    ),
  );
  show.addEventListener('click', () => post(watchCommand('showWatch', w.id)));
  const stop = el(
    'button',
    { class: 'action', type: 'button', 'aria-label': `Stop watching ${w.label}`, title: 'Stop watching' },
    codicon('eye-closed'),
  );
  stop.addEventListener('click', () => post(watchCommand('unwatch', w.id)));
  return el(
    'div',
    { class: `watch${last?.unseen ? ' unseen' : ''}`, role: 'listitem', 'data-watch-id': w.id },
    show,
    el('div', { class: 'item-actions watch-actions' }, stop),
  );
}
