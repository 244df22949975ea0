import { readFileSync, statSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { toRelative } from '../../paths';
import { looksBinary } from '../docs/markdown';
import { scanInline, type InlineScan } from './inlineRefs';

/** Most text a file contributes words from. */
const MAX_TEXT_BYTES = 256 * 1024;
/** Files kept: the cursor mostly stays in one file. */
const KEPT = 16;

/** A file's text and the decision references in it, read from disk when the editor gives none. */
export class FileTexts {
  private readonly cache = new Map<string, { mtimeMs: number; size: number; text: string; scan: InlineScan }>();
  private realRoot: string | undefined;

  constructor(
    private readonly root: string,
    private readonly maxFileBytes: number,
  ) {}

  /** The file's text (editor buffer or disk, bounded) and its inline decision references. */
  get(file: string, text: string | undefined): { text: string; scan: InlineScan } | undefined {
    if (text !== undefined) return { text, scan: scanInline(text) };
    if (toRelative(this.root, file) === undefined) return undefined;
    const abs = join(this.root, file);
    try {
      const st = statSync(abs);
      const cached = this.cache.get(file);
      if (cached && cached.mtimeMs === st.mtimeMs && cached.size === st.size) return cached;
      if (st.size > Math.min(this.maxFileBytes, MAX_TEXT_BYTES)) return undefined;
      const buf = readFileSync(abs);
      const entry = { mtimeMs: st.mtimeMs, size: st.size, text: '', scan: { refs: [], notes: [] } as InlineScan };
      if (!looksBinary(buf)) {
        entry.text = buf.toString('utf8');
        entry.scan = scanInline(entry.text);
      }
      if (this.cache.size > KEPT) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(file, entry);
      return entry;
    } catch {
      return undefined;
    }
  }

  /** The file's text from disk, bounded, without keeping it: for reading many files once. */
  async read(file: string): Promise<string | undefined> {
    if (toRelative(this.root, file) === undefined) return undefined;
    try {
      // A link out of the workspace (`notes.ts -> /etc/passwd`) is not the workspace's to read.
      this.realRoot ??= await realpath(this.root);
      const abs = await realpath(join(this.root, file));
      if (toRelative(this.realRoot, abs) === undefined) return undefined;
      if ((await stat(abs)).size > Math.min(this.maxFileBytes, MAX_TEXT_BYTES)) return undefined;
      const buf = await readFile(abs);
      return looksBinary(buf) ? undefined : buf.toString('utf8');
    } catch {
      return undefined;
    }
  }
}
