/**
 * The elements the Suggestions page draws: an item row with its actions, the command buttons, and the
 * sections that say why a group is empty. Text only through `el` (textContent), never markup.
 */
import type {
  ItemCommandType,
  PanelCommandType,
  PanelItem,
  PanelLocation,
  PanelState,
  SuggestionType,
} from '../shared/protocol';
import { codicon, el } from './dom';
import { KINDS, kindLabel } from '../shared/kinds';
import { inlineCodeParts, ownReason } from '../shared/presentation';
import { COMMAND_BUTTONS } from './labels';

const ITEM_ACTIONS: readonly {
  action: ItemCommandType;
  icon: string;
  pressedIcon?: string;
  label: string;
  key: string;
}[] = [
  { action: 'open', icon: 'go-to-file', label: 'Open', key: 'Enter' },
  { action: 'useful', icon: 'thumbsup', pressedIcon: 'thumbsup-filled', label: 'Useful', key: 'U' },
  { action: 'pin', icon: 'pin', pressedIcon: 'pinned', label: 'Pin to chat', key: 'P' },
  { action: 'copy', icon: 'copy', label: 'Copy', key: 'C' },
  { action: 'dismiss', icon: 'close', label: 'Dismiss', key: 'Delete' },
];

/** `sharedReason`: what the group says once above its rows, so the row leaves it out. */
export function itemRow(item: PanelItem, sharedReason?: string): HTMLElement {
  const kind = kindLabel(item.type);
  const reason = ownReason(item.reason, sharedReason);
  const score = `Relevance ${item.relevanceScore.toFixed(2)}`;
  const where = locationText(item.location);
  const summary = item.summary && item.summary !== item.title ? clipText(item.summary, 400) : '';
  const tooltip = [score, where, summary].filter(Boolean).join('\n');
  const at = [item.place, item.folder && `in ${item.folder}`].filter(Boolean).join(' ');
  const spoken = [`${item.isNew ? 'New. ' : ''}${kind}: ${item.title}${at ? `, ${at}` : ''}`, reason, item.age]
    .filter(Boolean)
    .join('. ');
  return el(
    'div',
    {
      class: 'item',
      role: 'option',
      tabindex: -1,
      'aria-selected': 'false',
      'aria-label': spoken,
      title: tooltip,
      'data-entity-id': item.entityId,
      'data-type': item.type,
    },
    codicon(item.icon, 'item-icon'),
    el(
      'div',
      { class: 'item-main' },
      el(
        'div',
        { class: 'item-title' },
        item.isNew ? el('span', { class: 'new-marker', 'aria-hidden': 'true' }, 'new') : null,
        ...inlineCode(item.title),
        item.place ? el('span', { class: 'item-place' }, item.place) : null,
        item.folder ? el('span', { class: 'item-folder' }, item.folder) : null,
      ),
      reason || item.age
        ? el(
            'div',
            { class: 'item-detail' },
            reason ? el('span', { class: 'item-reason' }, ...inlineCode(reason)) : null,
            item.age ? el('span', { class: 'item-age' }, item.age) : null,
          )
        : null,
    ),
    el(
      'div',
      { class: 'item-actions' },
      ...ITEM_ACTIONS.map((a) => {
        const pressed = (a.action === 'useful' && item.useful) || (a.action === 'pin' && item.pinned);
        return el(
          'button',
          {
            class: 'action',
            type: 'button',
            tabindex: -1,
            'data-action': a.action,
            'aria-label': `${a.label}: ${item.title}`,
            title: `${a.label} (${a.key})`,
            'aria-pressed': a.pressedIcon ? String(!!pressed) : undefined,
          },
          codicon(pressed && a.pressedIcon ? a.pressedIcon : a.icon),
        );
      }),
    ),
  );
}

/**
 * Groups that are empty for a reason worth saying, drawn outside the list (they hold no items to move
 * through): the Decisions group of a workspace without records (above the list, where decisions go)
 * and the history groups without git (below it).
 */
export function emptySections(s: PanelState): { decisions: HTMLElement[]; others: HTMLElement[] } {
  const decisions =
    s.decisionHelp && s.counts.decision === 0
      ? [
          emptySection('decision', s.decisionHelp.heading, s.decisionHelp.detail, [
            'recordDecision',
            'openDecisionSettings',
          ]),
        ]
      : [];
  const others = (s.sectionNotes ?? [])
    .filter((n) => s.counts[n.type] === 0)
    .map((n) => emptySection(n.type, undefined, n.text, []));
  return { decisions, others };
}

function emptySection(
  type: SuggestionType,
  heading: string | undefined,
  detail: string,
  buttons: PanelCommandType[],
): HTMLElement {
  const group = KINDS[type];
  const id = `pc-empty-${type}`;
  return el(
    'section',
    { class: 'empty-section', 'aria-labelledby': id, 'data-group': type },
    el(
      'h2',
      { class: 'group-header', id },
      codicon(group.icon, 'group-icon'),
      el('span', { class: 'group-title' }, group.title),
    ),
    el(
      'div',
      { class: 'empty-body' },
      heading ? el('p', { class: 'empty-heading' }, heading) : null,
      el('p', { class: 'empty-detail' }, detail),
      buttons.length
        ? el('div', { class: 'empty-buttons' }, ...buttons.map((b, i) => commandButton(b, i === 0)))
        : null,
    ),
  );
}

export function commandButton(command: PanelCommandType, primary: boolean): HTMLButtonElement {
  const b = COMMAND_BUTTONS[command];
  return el(
    'button',
    { class: primary ? 'button' : 'button secondary', type: 'button', 'data-command': command },
    codicon(b.icon),
    el('span', {}, b.label),
  );
}

/** Prose as text nodes and `inline code` as code elements: never markup from the string itself. */
export function inlineCode(text: string): (HTMLElement | string)[] {
  return inlineCodeParts(text).map((p) => (p.code ? el('code', { class: 'inline-code' }, p.text) : p.text));
}

function locationText(loc: PanelLocation): string {
  if (loc.adr && !loc.path) return loc.adr;
  let text = loc.path;
  if (loc.line !== undefined)
    text += `:${loc.line}${loc.endLine !== undefined && loc.endLine !== loc.line ? `-${loc.endLine}` : ''}`;
  if (loc.commit) text += `${text ? ' @ ' : ''}${loc.commit.slice(0, 8)}`;
  return text;
}

function clipText(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
