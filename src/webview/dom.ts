/**
 * The only way the page makes elements. Text goes through `textContent` and attributes through
 * `setAttribute`, so titles, commit messages and file names can never become markup.
 */

export type Attrs = Record<string, string | number | boolean | undefined>;
export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'class') node.className = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? text(child) : child);
  }
}

export function text(value: string): Text {
  return document.createTextNode(value);
}

/** A codicon glyph; names come from the host and are checked by the protocol guard. */
export function codicon(name: string, extraClass = ''): HTMLSpanElement {
  return el('span', { class: `codicon codicon-${name}${extraClass ? ' ' + extraClass : ''}`, 'aria-hidden': 'true' });
}

export function clear(node: Element): void {
  node.replaceChildren();
}
