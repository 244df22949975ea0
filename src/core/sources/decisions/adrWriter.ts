import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdrStyle, AdrStatus, ParsedAdr } from './adrParser';

export interface NewDecision {
  title: string;
  context: string;
  decision: string;
  consequences: string;
  status?: Exclude<AdrStatus, 'unknown' | 'superseded'>;
}

export class DecisionWriteError extends Error {
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

/** The format of the newest existing ADR in the folder, copied by the writer. */
export interface AdrFormat {
  style: AdrStyle;
  titleStyle: ParsedAdr['titleStyle'];
  bullet: '*' | '-';
  /** Digits of the number in file names (0003 → 4). */
  padding: number;
}

export const DEFAULT_FORMAT: AdrFormat = { style: 'nygard', titleStyle: 'numbered', bullet: '*', padding: 4 };

/** `Use PostgreSQL (v16) for the ledger!` → `use-postgresql-v16-for-the-ledger`. */
export function kebabTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'decision';
}

/** Highest number used by a file name in the folder (`0012-x.md` → 12), 0 when none. */
export function highestNumber(dir: string): { max: number; padding: number | undefined } {
  let max = 0;
  let padding: number | undefined;
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return { max, padding };
  }
  for (const name of entries) {
    const m = /^(?:adr[-_]?)?(\d+)[-_]/i.exec(name);
    // Records are `.md` (or another text format), kept in a folder of their own, or saved with no extension; not `0008-diagram.jpg`.
    if (!m || !(/\.(?:md|mdx|markdown|rst|adoc)$/i.test(name) || !name.includes('.'))) continue;
    const n = Number(m[1]);
    if (n >= max) {
      max = n;
      padding = m[1].length;
    }
  }
  return { max, padding };
}

/** Writes a new ADR file, numbered after the highest in `folderAbs`; never overwrites. Returns the file name. */
export function writeAdrFile(folderAbs: string, input: NewDecision, format: AdrFormat, now: number): string {
  const title = input.title.replace(/\s+/g, ' ').trim();
  if (!title) throw new DecisionWriteError('A decision needs a title.');
  mkdirSync(folderAbs, { recursive: true });
  const { max, padding } = highestNumber(folderAbs);
  const number = max + 1;
  const digits = String(number).padStart(padding ?? format.padding, '0');
  const name = `${digits}-${kebabTitle(title)}.md`;
  const taken = readdirSync(folderAbs).find((n) => new RegExp(`^(?:adr[-_]?)?0*${number}[-_]`, 'i').test(n));
  if (taken || existsSync(join(folderAbs, name)))
    throw new DecisionWriteError(
      `Decision number ${digits} is already taken by ${taken ?? name}; nothing was written.`,
      join(folderAbs, taken ?? name),
    );
  const text = renderAdr(number, title, input, format, now);
  try {
    writeFileSync(join(folderAbs, name), text, { encoding: 'utf8', flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new DecisionWriteError(`${name} already exists; nothing was written.`, join(folderAbs, name));
    throw err;
  }
  return name;
}

export function renderAdr(number: number, title: string, input: NewDecision, format: AdrFormat, now: number): string {
  const date = new Date(now).toISOString().slice(0, 10);
  const status = input.status ?? 'accepted';
  const heading =
    format.titleStyle === 'numbered'
      ? `# ${number}. ${title}`
      : format.titleStyle === 'adr-prefix'
        ? `# ADR-${number}: ${title}`
        : `# ${title}`;
  const para = (s: string) => s.trim() || '(to be written)';
  if (format.style === 'nygard') {
    return [
      heading,
      '',
      `Date: ${date}`,
      '',
      '## Status',
      '',
      capitalize(status),
      '',
      '## Context',
      '',
      para(input.context),
      '',
      '## Decision',
      '',
      para(input.decision),
      '',
      '## Consequences',
      '',
      para(input.consequences),
      '',
    ].join('\n');
  }
  const madrBody = [
    '## Context and Problem Statement',
    '',
    para(input.context),
    '',
    '## Decision Outcome',
    '',
    para(input.decision),
    '',
    '### Consequences',
    '',
    para(input.consequences),
    '',
  ];
  if (format.style === 'madr-frontmatter') {
    return ['---', `status: ${status}`, `date: ${date}`, '---', '', heading, '', ...madrBody].join('\n');
  }
  return [heading, '', `${format.bullet} Status: ${status}`, `${format.bullet} Date: ${date}`, '', ...madrBody].join(
    '\n',
  );
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
