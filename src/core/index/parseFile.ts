import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { looksBinary } from '../scan/scanner';
import { extractFacts } from './extract';
import type { FileFacts } from './facts';
import { parserFor, type LangId } from './languages';

const PARSE_LIMIT_MS = 3000;
/**
 * Raised whenever extraction finds something different in the same file (a language's rules, a new
 * kind of fact). It prefixes each file's stored content hash, so files indexed by an older version
 * are parsed again on the next build, one by one, even if that build runs out of time.
 */
const EXTRACTION_VERSION = 15;
export const HASH_PREFIX = `x${EXTRACTION_VERSION}:`;

/** One file to read and parse; plain data, so it crosses to a parse worker as it is. */
export interface ParseRequest {
  root: string;
  path: string;
  lang: LangId;
  maxFileBytes: number;
  /** The stored hash: the same content is not parsed again. */
  prevHash?: string;
}

/** What reading and parsing one file gave; `log` is said by the thread that owns the logger. */
export type ParseOutcome =
  | { kind: 'parsed'; hash: string; facts: FileFacts }
  | { kind: 'unchanged' }
  | { kind: 'skipped'; log?: { level: 'debug' | 'warn'; message: string; once?: string } };

/**
 * Reads, hashes and (when the content changed) parses one file into its facts. Touches no store and
 * no shared state but the per-thread parsers, so it runs on the main thread or in a parse worker.
 */
export async function parseFile(req: ParseRequest, content?: Promise<Buffer | undefined>): Promise<ParseOutcome> {
  const { path: rel, lang } = req;
  let buf: Buffer | undefined;
  try {
    buf = content ? await content : await readFile(join(req.root, rel));
  } catch (err) {
    return { kind: 'skipped', log: { level: 'debug', message: `Cannot read ${rel}: ${(err as Error).message}` } };
  }
  if (!buf || buf.length > req.maxFileBytes || looksBinary(buf)) return { kind: 'skipped' };
  const hash = HASH_PREFIX + createHash('sha1').update(buf).digest('hex');
  if (hash === req.prevHash) return { kind: 'unchanged' };
  let parser;
  try {
    parser = await parserFor(lang);
  } catch (err) {
    const message = `Cannot load the ${lang} grammar; ${lang} files are not indexed: ${(err as Error).message}`;
    return { kind: 'skipped', log: { level: 'warn', message, once: `lang:${lang}` } };
  }
  // A pathological file (generated, minified) must not hold the indexer: give up after a while.
  const giveUpAt = performance.now() + PARSE_LIMIT_MS;
  const tree = parser.parse(buf.toString('utf8'), null, { progressCallback: () => performance.now() > giveUpAt });
  if (!tree) {
    parser.reset();
    const message = `Not indexing ${rel}: parsing took longer than ${PARSE_LIMIT_MS} ms.`;
    return { kind: 'skipped', log: { level: 'debug', message } };
  }
  try {
    return { kind: 'parsed', hash, facts: extractFacts(lang, tree) };
  } catch (err) {
    return { kind: 'skipped', log: { level: 'warn', message: `Could not index ${rel}: ${(err as Error).message}` } };
  } finally {
    tree.delete();
  }
}
