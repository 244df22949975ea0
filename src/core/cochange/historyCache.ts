import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../logger';
import { removeStaleTempFiles, writeFileAtomic } from '../store/atomicFile';
import { decodeBroad, encodeBroad } from './broadChanges';
import { decodeCounts, encodeCounts } from './countsCodec';
import { decodeHistory, encodeHistory, type DecodedHistory } from './fileHistoryCodec';
import type { FileHistory } from './fileHistory';
import type { PackedBroadChanges } from './packedBroadChanges';
import type { PackedCounts } from './packedCounts';
import type { PathTable } from './pathTable';

/** The co-change counts' cache file in the state directory, next to index.db. */
export const COCHANGE_FILE = 'cochange.bin';
/** The change sets too large for pair counts, next to it. */
export const BROAD_FILE = 'cochange-broad.json';
/** Every first-parent commit and each file's commits, with the path table the counts use. */
export const HISTORY_FILE = 'history.bin';

const FILES = [HISTORY_FILE, COCHANGE_FILE, BROAD_FILE];

/** What one mining pass leaves: the three files name the same commit, or none is used. */
export interface HistorySnapshot {
  paths: PathTable;
  counts: PackedCounts;
  broad: PackedBroadChanges;
  history: FileHistory;
  head: string;
  shallow: boolean;
}

/** The three files' contents as just written (by a team index snapshot), the history already decoded. */
export interface GivenHistoryFiles {
  history: DecodedHistory;
  counts: Buffer;
  broad: Buffer;
}

/**
 * Reads the three cache files, or takes their contents as given. A missing, damaged or disagreeing
 * one is logged and nothing is used, so the next update mines history again.
 */
export function loadSnapshot(
  stateDir: string,
  newBroad: (paths: PathTable) => PackedBroadChanges,
  maxChangeSet: number,
  logger: Logger,
  given?: GivenHistoryFiles,
): HistorySnapshot | undefined {
  for (const f of FILES) removeStaleTempFiles(stateDir, f);
  const read = (name: string): Buffer | undefined => {
    if (given) return name === COCHANGE_FILE ? given.counts : name === BROAD_FILE ? given.broad : undefined;
    try {
      return readFileSync(join(stateDir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        logger.info(`No ${name} in ${stateDir}; history will be mined.`);
      else
        logger.warn(`Cannot read ${join(stateDir, name)}: ${(err as Error).message}; it will be rebuilt from history.`);
      return undefined;
    }
  };
  const unusable = (name: string, why: string): undefined => {
    // Another version's format is expected after an update; anything else is damage.
    if (why.startsWith('format '))
      logger.info(
        `The history cache ${join(stateDir, name)} is in another version's format (${why}); it will be rebuilt from history.`,
      );
    else
      logger.warn(`The history cache ${join(stateDir, name)} is unusable (${why}); it will be rebuilt from history.`);
    try {
      unlinkSync(join(stateDir, name));
    } catch {
      // Replaced by the next save anyway.
    }
    return undefined;
  };
  let history: DecodedHistory | string | undefined = given?.history;
  if (!history) {
    const historyData = read(HISTORY_FILE);
    if (!historyData) return undefined;
    history = decodeHistory(historyData);
  }
  if (typeof history === 'string') return unusable(HISTORY_FILE, history);
  const countsData = read(COCHANGE_FILE);
  if (!countsData) return undefined;
  const counts = decodeCounts(countsData, history.history.paths, maxChangeSet);
  if (typeof counts === 'string') return unusable(COCHANGE_FILE, counts);
  const broadData = read(BROAD_FILE);
  if (!broadData) return undefined;
  const broad = newBroad(history.history.paths);
  const decoded = decodeBroad(broadData.toString('utf8'), broad);
  if (typeof decoded === 'string') return unusable(BROAD_FILE, decoded);
  if (counts.head !== history.head || decoded.head !== history.head) {
    // Saved at different commits: a stop between two writes, or files from another version.
    logger.info(
      `The history cache files in ${stateDir} disagree (${HISTORY_FILE} ${history.head || '-'}, ${COCHANGE_FILE} ${counts.head || '-'}, ${BROAD_FILE} ${decoded.head || '-'}); history will be mined again.`,
    );
    return undefined;
  }
  return {
    paths: history.history.paths,
    counts: counts.counts,
    broad,
    history: history.history,
    head: history.head,
    shallow: history.shallow,
  };
}

/** Writes the three files, each atomically; a failure is logged (the model in memory stays right). */
export function saveSnapshot(stateDir: string, s: HistorySnapshot, logger: Logger): void {
  try {
    writeFileAtomic(join(stateDir, BROAD_FILE), Buffer.from(encodeBroad(s.broad, s.head), 'utf8'));
    writeFileAtomic(join(stateDir, COCHANGE_FILE), encodeCounts(s.counts, s.head));
    writeFileAtomic(join(stateDir, HISTORY_FILE), encodeHistory(s.history, s.head, s.shallow));
  } catch (err) {
    // The next start mines again from the last commit all three files agree on.
    logger.warn(`Could not save the history cache in ${stateDir}: ${(err as Error).message}`);
  }
}

export function removeSnapshot(stateDir: string, logger: Logger): void {
  for (const name of FILES) {
    try {
      unlinkSync(join(stateDir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        logger.warn(`Could not remove ${join(stateDir, name)}: ${(err as Error).message}`);
    }
  }
}
