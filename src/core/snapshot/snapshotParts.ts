import type { CoChangeModel } from '../cochange/cochangeModel';
import type { Logger } from '../logger';
import type { HistorySources } from '../sources/git/historySources';
import type { Store } from '../store/store';

/** The entries of a snapshot: the index cache and the three history cache files, by their names in the state directory. */
export const INDEX_ENTRY = 'index.db';
export { BROAD_FILE, COCHANGE_FILE, HISTORY_FILE } from '../cochange/historyCache';

/** The parts of an engine that exporting and importing a snapshot touch. */
export interface SnapshotParts {
  readonly root: string;
  readonly stateDir: string;
  readonly store: Store;
  readonly cochange: CoChangeModel;
  readonly logger: Logger;
  /** The related-files ranking's words of each code file, which a snapshot carries when they were read. */
  readonly history?: Pick<HistorySources, 'termFiles' | 'seedTerms'>;
}
