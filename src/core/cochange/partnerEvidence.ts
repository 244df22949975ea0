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
 * - this file is generated from it and they changed together at least once (a Django migration and
 *   its app's models, a Rails migration and `db/schema.rb`): the convention says they move together,
 *   the shared commit says this pair did. Not the other way round: the models' history is not every
 *   migration written from them; or
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
  if (shared >= 1 && generatedFrom(file.path, partner.path)) return true;
  if (!links?.imports) return false;
  if (!file.hasHistory) return true;
  if (shared < 1) return false;
  return (partner.largeChanges ?? 0) >= 1 || (file.commits === 1 && sameFolder(partner.path, file.path));
}

function sameFolder(a: string, b: string): boolean {
  return posix.dirname(a) === posix.dirname(b);
}

/**
 * The source a framework generates this file from is as sure a partner as its test: the
 * learned ranking has no feature for the convention, so its score is raised to that of a clear pair.
 */
const GENERATED_PAIR_SCORE = 0.5;

/** The score to show a partner with (after hasChangeEvidence said it may be shown). */
export function partnerScore(partner: RelatedFile, file: PartnerQuery): number {
  return generatedFrom(file.path, partner.path) ? Math.max(partner.score, GENERATED_PAIR_SCORE) : partner.score;
}

/**
 * Whether the framework writes `generated` from `source`: a Django migration from its app's models
 * (`shop/migrations/0001_initial.py` from `shop/models.py` or `shop/models/*.py`), a Rails migration
 * into the schema dump (`db/migrate/*.rb` and `db/schema.rb` or `db/structure.sql`).
 */
function generatedFrom(generated: string, source: string): boolean {
  const dir = posix.dirname(generated);
  if (posix.basename(dir) === 'migrations' && generated.endsWith('.py') && !generated.endsWith('/__init__.py')) {
    const app = posix.dirname(dir);
    const models = app === '.' ? 'models' : `${app}/models`;
    return source === `${models}.py` || (posix.dirname(source) === models && source.endsWith('.py'));
  }
  if (posix.basename(dir) === 'migrate' && posix.basename(posix.dirname(dir)) === 'db' && generated.endsWith('.rb')) {
    const db = posix.dirname(dir);
    return source === `${db}/schema.rb` || source === `${db}/structure.sql`;
  }
  return false;
}
