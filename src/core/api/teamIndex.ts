/** What adapters need to offer team index snapshots: the source they pass to `open`, and what came of it. */
export type { SnapshotOutcome, SnapshotProgress, SnapshotSource } from '../snapshot/teamIndex';
export type { ExportResult } from '../snapshot/exportSnapshot';
export { SnapshotError } from '../snapshot/format';
