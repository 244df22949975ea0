import { posix } from 'node:path';
import type { RelatedFile } from './relatedFiles';

/** What the panel knows of the file whose partners it shows. */
export interface PartnerQuery {
  path: string;
  /** Any commit, a large change set included, touched it. */
  hasHistory: boolean;
  /** Its commits small enough for pair counts. */
  commits: number;
}

/**
 * Whether a ranked partner has the evidence to be shown as "usually changes with" this file.
 *
 * The ranking gathers candidates from every signal, shared words and similar names included, and
 * that is right for ordering them. What the panel shows needs more: a file that shares words with
 * this one but never changed with it, though this file has a history, is a guess; and one commit
 * shared (a file created with its siblings, a sweeping change) is a coincidence until something
 * independent of history backs it. So a partner is shown when:
 *
 * - it changed with this file in at least two commits; or
 * - it is this file's test or implementation by naming convention; or
 * - it changed with this file once, again in a large change set, and one imports the other; or
 * - it is in this file's folder, one imports the other, and this file's only commit, the one that
 *   created it, changed it too: a young file has no other history, and the files of its folder it
 *   came with (a Django app's `models.py` and `admin.py`) are the rest of its module; or
 * - it names what the file's uncommitted change touches (a link to the work at hand); or
 * - this file has no history yet (a new file), and one imports the other. A file whose only commits
 *   were large change sets has a history: it just never changed with the other file alone.
 *
 * Partners of partners (two hops), shared words, similar names, folders and large change sets only
 * ever rank a partner; they never show one on their own. One shared commit and an import is not
 * enough either: a file is created with the files it imports and its importers, and a second change
 * together, however large, is what says that they move together.
 */
export function hasChangeEvidence(partner: RelatedFile, file: PartnerQuery): boolean {
  const shared = partner.support ?? 0;
  const links = partner.links;
  if (shared >= 2) return true;
  if (links?.test || links?.change) return true;
  if (!links?.imports) return false;
  if (!file.hasHistory) return true;
  if (shared < 1) return false;
  return (partner.largeChanges ?? 0) >= 1 || (file.commits === 1 && sameFolder(partner.path, file.path));
}

function sameFolder(a: string, b: string): boolean {
  return posix.dirname(a) === posix.dirname(b);
}
