/** A small XML reader for test reports: elements, attributes, text, CDATA and entities. No DTDs, no namespaces. */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text and CDATA directly inside this element. */
  text: string;
  /** 1-based line of the start tag. */
  line: number;
}

export class XmlError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`${message} at line ${line}`);
  }
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED[e] ?? m;
  });
}

/** Parses a whole document; throws XmlError on malformed input (unclosed or mismatched tags, bad attributes). */
export function parseXml(src: string): XmlElement {
  const rootHolder: XmlElement = { name: '#document', attrs: {}, children: [], text: '', line: 1 };
  const stack: XmlElement[] = [rootHolder];
  let i = 0;
  let line = 1;
  const n = src.length;
  const advanceTo = (j: number) => {
    for (let k = i; k < j; k++) if (src.charCodeAt(k) === 10) line++;
    i = j;
  };
  while (i < n) {
    const lt = src.indexOf('<', i);
    if (lt < 0) {
      appendText(stack[stack.length - 1], src.slice(i));
      advanceTo(n);
      break;
    }
    if (lt > i) {
      appendText(stack[stack.length - 1], decodeEntities(src.slice(i, lt)));
      advanceTo(lt);
    }
    if (src.startsWith('<!--', i)) {
      const end = src.indexOf('-->', i + 4);
      if (end < 0) throw new XmlError('Unterminated comment', line);
      advanceTo(end + 3);
    } else if (src.startsWith('<![CDATA[', i)) {
      const end = src.indexOf(']]>', i + 9);
      if (end < 0) throw new XmlError('Unterminated CDATA section', line);
      appendText(stack[stack.length - 1], src.slice(i + 9, end), true);
      advanceTo(end + 3);
    } else if (src.startsWith('<?', i)) {
      const end = src.indexOf('?>', i + 2);
      if (end < 0) throw new XmlError('Unterminated processing instruction', line);
      advanceTo(end + 2);
    } else if (src.startsWith('<!', i)) {
      const end = skipDeclaration(src, i);
      if (end < 0) throw new XmlError('Unterminated declaration', line);
      advanceTo(end);
    } else if (src.startsWith('</', i)) {
      const end = src.indexOf('>', i + 2);
      if (end < 0) throw new XmlError('Unterminated end tag', line);
      const name = src.slice(i + 2, end).trim();
      const top = stack[stack.length - 1];
      if (stack.length === 1 || top.name !== name)
        throw new XmlError(`Unexpected </${name}>${stack.length > 1 ? `, expected </${top.name}>` : ''}`, line);
      stack.pop();
      advanceTo(end + 1);
    } else {
      const startLine = line;
      const { el, end, selfClosing } = readStartTag(src, i, startLine);
      stack[stack.length - 1].children.push(el);
      if (!selfClosing) stack.push(el);
      advanceTo(end);
    }
  }
  if (stack.length > 1) throw new XmlError(`Unclosed <${stack[stack.length - 1].name}>`, line);
  const root = rootHolder.children[0];
  if (!root) throw new XmlError('No root element', line);
  return root;
}

function appendText(el: XmlElement, text: string, cdata = false): void {
  if (el.name === '#document') {
    if (text.trim() && !cdata) throw new XmlError('Text outside the root element', el.line);
    return;
  }
  el.text += text;
}

function skipDeclaration(src: string, i: number): number {
  let depth = 0;
  for (let k = i; k < src.length; k++) {
    const c = src[k];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return k + 1;
  }
  return -1;
}

const NAME = /[A-Za-z_:][\w:.-]*/y;
const SPACE = /\s*/y;

function readStartTag(src: string, i: number, line: number): { el: XmlElement; end: number; selfClosing: boolean } {
  NAME.lastIndex = i + 1;
  const nm = NAME.exec(src);
  if (!nm) throw new XmlError('Bad tag name', line);
  const el: XmlElement = { name: nm[0], attrs: {}, children: [], text: '', line };
  let k = NAME.lastIndex;
  for (;;) {
    SPACE.lastIndex = k;
    SPACE.exec(src);
    k = SPACE.lastIndex;
    if (k >= src.length) throw new XmlError(`Unterminated <${el.name}>`, line);
    if (src[k] === '>') return { el, end: k + 1, selfClosing: false };
    if (src[k] === '/' && src[k + 1] === '>') return { el, end: k + 2, selfClosing: true };
    NAME.lastIndex = k;
    const an = NAME.exec(src);
    if (!an) throw new XmlError(`Bad attribute in <${el.name}>`, line);
    k = NAME.lastIndex;
    SPACE.lastIndex = k;
    SPACE.exec(src);
    k = SPACE.lastIndex;
    if (src[k] !== '=') throw new XmlError(`Attribute ${an[0]} without value in <${el.name}>`, line);
    k++;
    SPACE.lastIndex = k;
    SPACE.exec(src);
    k = SPACE.lastIndex;
    const q = src[k];
    if (q !== '"' && q !== "'") throw new XmlError(`Unquoted attribute ${an[0]} in <${el.name}>`, line);
    const close = src.indexOf(q, k + 1);
    if (close < 0) throw new XmlError(`Unterminated attribute ${an[0]} in <${el.name}>`, line);
    const raw = src.slice(k + 1, close);
    if (raw.includes('<')) throw new XmlError(`'<' inside attribute ${an[0]}`, line);
    el.attrs[an[0]] = decodeEntities(raw.replace(/[\t\n\r]/g, ' '));
    k = close + 1;
  }
}

/** Depth-first walk with the chain of ancestors. */
export function walkXml(
  el: XmlElement,
  visit: (el: XmlElement, ancestors: XmlElement[]) => void,
  ancestors: XmlElement[] = [],
): void {
  visit(el, ancestors);
  ancestors.push(el);
  for (const c of el.children) walkXml(c, visit, ancestors);
  ancestors.pop();
}
