import { kindFloor } from '../../provider/scoring';
import { trimEndOf } from '../../../shared/text';
import type { SuggestionItem } from '../../types';
import { score } from '../sourceQuery';
import { decisionItem, nameOf, retiredWarning, type DecisionHit, type DecisionRecord } from './decisionItems';

/** An explicit link this strong to a retired record becomes a warning. */
const STRONG = 0.6;
/**
 * A record linked less than this share of the best record's strength is not shown; the fourth and
 * fifth record must come closer to the best. Over 30 labelled repositories the fifth record shown
 * was one a reader wanted in 3% of panels and noise in 82%: a further record must earn its place.
 */
const RELATIVE_FLOOR = [0.65, 0.65, 0.65, 0.75, 0.85];
/**
 * The second record shown must come this near the first one when that is linked by words alone. Over 42
 * repositories of the panel benchmark, second records under it were noise in 3 places and wanted in
 * none (at 0.7 it cost a wanted one). Beside a second record that has earned its place, a third keeps
 * the first floor.
 */
const SECOND_FLOOR = 0.68;
/**
 * A title word a fifth of the workspace's files carry (`activity`, `cas1`) names the one record
 * nearest the file at most; below another record it tells nothing (noise in 3 places of 42
 * repositories and wanted in none).
 */
const COMMON_NAME_SHARE = 0.2;
/**
 * A folder word one file in twelve carries (`data` of `app/data_models/`, `apps`, `records`,
 * `notification`), or the folder of a tool's settings (`.github/workflows/`), says where a file is
 * kept, not what the code at the cursor does: it names the one record nearest the file at most. Below
 * another record such folders linked noise in 7 places of 46 repositories and a wanted record in none
 * (`kubernetes`, `search` and `discovery` folders, carried by one file in twenty or fewer, still link).
 */
const COMMON_FOLDER_SHARE = 0.08;
/** Share of the second-best kind of link added to the best one. */
const EVIDENCE_BONUS = 0.15;
/**
 * Records linked only by several rare words in common shown on one place. Such words (`threshold`,
 * `pending`, `required`) are rare in code but ordinary in prose: they tell the one record nearest to
 * the file, never a list. On the panel benchmark's reported set, of the records shown below another
 * one linked so, 8 of 9 were noise and none was wanted. Below a record linked by anything else they
 * are not shown either: two words may say what a file alone is about, but beside a better link even
 * three were noise in 8 of 11 places over the sixteen repositories of the panel benchmark.
 */
const MOST_BY_WORDS = 1;
/**
 * Where a file only carries a record's title word (a name it defines, a word of its text or doc
 * comment) rather than being named after it. Such a word tells the one record nearest the file, when
 * nothing better does; below another record it was noise in 13 of 15 places on the panel benchmark.
 */
const WEAK_SOURCES: ReadonlySet<string> = new Set(['definition', 'comment', 'text']);
/**
 * Records a group shows before "Show more". Weak evidence does not take the second or third place (it
 * is folded below them, for "Show more"), and the third record is not one more linked by a word that
 * linked a record above: that word has told its record. Further down (a longer list, a search) they keep their rank, where cutting them lost
 * expected records on `eval decisions`.
 */
const VISIBLE = 3;
/**
 * A record its words link to this share of the workspace's code files is broad (see recordBreadth.ts):
 * linked by words alone, it waits below a record linked more specifically (one named explicitly, or
 * one words link to fewer files). Over the 54 repositories of the panel benchmark, such records below
 * a specific one were noise in 16 places and wanted in 4; below another broad record they were wanted
 * as often as not, and in first place wanted in 78 places and noise in 34, so they keep those places.
 */
const BROAD_SHARE = 0.2;
/**
 * Rare words in common with a record its words link to this share of the workspace's code files are
 * chance: a long record shares three rare words with most files. Over the 62 repositories of the panel
 * benchmark, such records linked by rare words alone were noise in 7 places and wanted in none.
 */
const CHANCE_SHARE = 0.6;
/** How far under the last record shown each folded one goes: enough to keep the order once scores are rounded. */
const FOLD_STEP = 0.005;

export interface RankInput {
  /** The file at the cursor: a record open in the editor does not suggest itself. */
  file: string | undefined;
  /** Every link found (explicit and by words), several per record. */
  hits: readonly DecisionHit[];
  /** `DECISION:` notes of the file. */
  notes: readonly SuggestionItem[];
  /** The strongest link by common words alone: the records shown must come near it too. */
  unspecific: number;
  successorOf(adr: DecisionRecord): DecisionRecord | undefined;
  dateOf(adr: DecisionRecord): number | undefined;
  /** Share of the workspace's code files each record's words link it to, by record (or log entry) key. */
  breadthOf?: (key: string) => number;
}

/**
 * The decision items of one place from the links found for it: each record's best link (plus a share
 * of its best link of another kind), retired records relied on explicitly as warnings with their
 * successor, and only the records that come near the best one.
 */
export function rankDecisions(input: RankInput): SuggestionItem[] {
  const { file } = input;
  // Kinds of evidence add up: the strongest link counts in full, the best link of another kind adds a share of its own.
  const byRecord = new Map<string, Map<string, DecisionHit>>();
  for (const h of input.hits) {
    // Each entry of a decision log gathers its own evidence; the panel then shows the log's best.
    const key = h.adr.span ? `${h.adr.path}#${h.adr.span.line}` : h.adr.path;
    const kinds = byRecord.get(key) ?? new Map<string, DecisionHit>();
    const group = h.kind === 'text' ? 'text' : 'explicit:' + h.kind;
    if ((kinds.get(group)?.score ?? -1) < h.score) kinds.set(group, h);
    byRecord.set(key, kinds);
  }
  const out = new Map<string, SuggestionItem>();
  // The entries of a decision log share one item: the one shown is judged by its own links, not its siblings'.
  const entryOf = new Map<string, string>();
  const put = (item: SuggestionItem, entry?: string) => {
    // A record open in the editor is already in front of the reader: it never suggests itself.
    if (file && item.location.path === file && item.meta?.status !== 'note') return;
    const prev = out.get(item.entityId);
    if (prev && prev.relevanceScore >= item.relevanceScore) return;
    out.set(item.entityId, item);
    if (entry !== undefined) entryOf.set(item.entityId, entry);
    else entryOf.delete(item.entityId);
  };
  for (const [entry, kinds] of byRecord) {
    const [best, second] = [...kinds.values()].sort((a, b) => b.score - a.score);
    const h = second ? { ...best, score: Math.min(1, best.score + EVIDENCE_BONUS * second.score) } : best;
    const adr = h.adr;
    const retired = adr.status === 'superseded' || adr.status === 'deprecated';
    // Only an explicit link says that this code relies on a retired decision.
    // The explicit link alone must be strong: words in common do not make a file rely on a record.
    if (retired && best.score >= STRONG && h.kind !== 'text') {
      const successor = input.successorOf(adr);
      put(retiredWarning(adr, successor, h));
      if (successor)
        put(
          decisionItem(
            successor,
            h.score * 0.95,
            `supersedes ${nameOf(adr)}; ${h.reason}`,
            h.kind,
            undefined,
            input.dateOf(successor),
          ),
        );
      continue;
    }
    const factor = retired ? 0.4 : adr.status === 'rejected' ? 0.6 : adr.status === 'proposed' ? 0.9 : 1;
    if (h.score * factor < kindFloor.decision) continue;
    put(decisionItem(adr, h.score * factor, h.reason, h.kind, h.line, input.dateOf(adr)), entry);
  }
  for (const i of input.notes) put(i);
  // Records far weaker than the best one here are noise beside it: an empty line is better.
  const sorted = [...out.values()].sort((a, b) => b.relevanceScore - a.relevanceScore);
  const best = Math.max(
    score(input.unspecific),
    sorted.find((i) => i.type === 'decision' && i.meta?.status !== 'note')?.relevanceScore ?? 0,
  );
  const links = wordLinks(byRecord, input.breadthOf);
  return nearBest(sorted, best, links, (i) => entryOf.get(i.entityId) ?? i.entityId);
}

/** How the records linked by words alone are linked, by item id. */
interface WordLinks {
  /** Several rare words in common, the weakest evidence there is: how many. */
  byWords: Map<string, number>;
  /** A word of the file's name that the record mentions but its title lacks. */
  byMention: Set<string>;
  /** A word of the file's or the definition's name that the record's title holds. */
  byTitle: Set<string>;
  /**
   * The weakest specific links: a name the record writes as code that the file uses (beside common
   * words), or a title word the file only defines or writes. They tell one record, not a list.
   */
  weak: Set<string>;
  /**
   * Records linked by a module inside an imported package (`deletion` of `django.db.models.deletion`) or
   * by a rare word of the definition's name: a record above linked by the same word makes them a topic.
   */
  sameTopic: Set<string>;
  /** The evidence word of each record linked by words (`name:stack`, `import:react`). */
  word: Map<string, string>;
  /** Records linked by words and nothing else. */
  wordsOnly: Set<string>;
  /** Records linked only by the folder the file is in: which folder. */
  byFolder: Map<string, string>;
  /**
   * Records linked only by a title word the file or definition is named after that many files carry,
   * or by a folder word many files carry or the folder of a tool's settings.
   */
  commonName: Set<string>;
  /** Records linked by words alone whose words link them to a large share of the workspace's files: that share. */
  broad: Map<string, number>;
  /** Records linked only by rare words in common whose words link them to most of the code: by chance. */
  chance: Set<string>;
  /** Records linked only by a package they mention but are not titled by (`@google-cloud/pubsub`). */
  mentionsPackage: Set<string>;
  /**
   * Records linked only by a package they are titled by (`helmet`, "Use Helmet"), or by the initials of the
   * file's name: of the links by words, the ones that earn the third place.
   */
  titledPackage: Set<string>;
}

/**
 * The weakest specific links: a name the record writes as code that the file uses, a title word the
 * file only defines or writes, a word of the file's or definition's name that only the record's text
 * has (unless it writes it as a compound name), a module inside an imported package.
 */
function isWeak(e: NonNullable<DecisionHit['evidence']>): boolean {
  if (e.kind === 'uses') return true;
  if (e.kind === 'import') return e.module === true;
  if (e.kind !== 'name') return false;
  if (e.generic || e.shared) return true;
  if (e.inRecord === 'text') return !e.code;
  return !e.inRecord && (WEAK_SOURCES.has(e.source ?? '') || (e.source === 'symbol' && !e.code));
}

/**
 * A title word the file or definition is named after that a fifth of the workspace's files carry, a
 * folder word a twelfth of them carry, or a dot folder (`.github/`, `.circleci/`).
 */
function isCommonName(e: NonNullable<DecisionHit['evidence']>): boolean {
  if (e.kind === 'folder')
    return (e.share ?? 0) > COMMON_FOLDER_SHARE || (e.where ?? '').split('/').some((part) => part.startsWith('.'));
  return e.kind === 'name' && e.inRecord === 'title' && (e.share ?? 0) > COMMON_NAME_SHARE;
}

/** Linked by the folder the file is in and nothing else, by words or as a file the index does not read: that folder. */
function onlyFolder(kinds: ReadonlyMap<string, DecisionHit>): string | undefined {
  const only = kinds.size === 1 ? [...kinds.values()][0].evidence : undefined;
  return only?.kind === 'folder' && only.where !== undefined ? trimEndOf(only.where, '/') : undefined;
}

/**
 * Linked because the record names a file next to this one (`nunjucksSetup.ts` beside `normaliseCrn.ts`),
 * names this module and says nothing more of it, or only talks of the tool of a file the index does not
 * read: it tells the one record nearest the file at most. Below another record such links were noise in
 * 8 places of 50 repositories and wanted in none (a record naming this module whose words link it too
 * stays: wanted in 6 places; so does one titled after the tool).
 */
function namesNeighbour(kinds: ReadonlyMap<string, DecisionHit>): boolean {
  if (kinds.size === 1 && kinds.has('explicit:module')) return true;
  const keys = [...kinds.keys()];
  if (kinds.has('explicit:sibling')) return keys.every((k) => k === 'explicit:sibling' || k === 'text');
  // A record whose text only talks of the file's tool (Flyway, Terraform, GitHub Actions), titled after something else.
  return (
    kinds.get('explicit:type')?.evidence?.inRecord === 'text' &&
    keys.every((k) => k === 'explicit:type' || k === 'text')
  );
}

/** Keyed by record, or by entry of a decision log. */
function wordLinks(
  records: ReadonlyMap<string, ReadonlyMap<string, DecisionHit>>,
  breadthOf: (key: string) => number = () => 0,
): WordLinks {
  const out: WordLinks = {
    byWords: new Map(),
    byMention: new Set(),
    byTitle: new Set(),
    weak: new Set(),
    sameTopic: new Set(),
    word: new Map(),
    wordsOnly: new Set(),
    byFolder: new Map(),
    commonName: new Set(),
    broad: new Map(),
    chance: new Set(),
    mentionsPackage: new Set(),
    titledPackage: new Set(),
  };
  for (const [id, kinds] of records) {
    const folder = onlyFolder(kinds);
    if (folder !== undefined) out.byFolder.set(id, folder);
    if (namesNeighbour(kinds)) out.weak.add(id);
    const e = kinds.get('text')?.evidence;
    if (!e) continue;
    if (e.inRecord === 'title') out.byTitle.add(id);
    if (e.words?.length) out.word.set(id, `${e.kind}:${e.words[0]}`);
    if (kinds.size > 1) continue;
    out.wordsOnly.add(id);
    if (e.kind === 'words') out.byWords.set(id, e.words?.length ?? 0);
    else if (e.inRecord === 'text') out.byMention.add(id);
    if (isWeak(e)) out.weak.add(id);
    if (isCommonName(e)) out.commonName.add(id);
    if (breadthOf(id) >= BROAD_SHARE) out.broad.set(id, breadthOf(id));
    if (e.kind === 'words' && breadthOf(id) >= CHANCE_SHARE) out.chance.add(id);
    if (e.kind === 'import' && e.mentionOnly) out.mentionsPackage.add(id);
    if ((e.kind === 'import' && !e.mentionOnly && !e.module) || e.acronym) out.titledPackage.add(id);
    if ((e.kind === 'import' && e.module) || (e.kind === 'name' && !e.inRecord && e.source === 'symbol' && !e.generic))
      out.sameTopic.add(id);
  }
  return out;
}

/**
 * The items worth showing beside the best record: near enough to it, one record at most linked only by
 * rare words, none that only mentions a word of the file's name below one titled by such a word, none
 * linked by the weakest evidence below another, and no third record by a word that already linked one.
 */
function nearBest(
  sorted: readonly SuggestionItem[],
  best: number,
  links: WordLinks,
  entryOf: (i: SuggestionItem) => string,
): SuggestionItem[] {
  let records = 0;
  // The first record shown, when linked by words alone: the second must come near it. A record the file
  // or definition is named in is linked on another scale, and says nothing of how near the next one is.
  let first = 0;
  let firstByWords = false;
  const farBelowFirst = (i: SuggestionItem) => records === 1 && firstByWords && i.relevanceScore < first * SECOND_FLOOR;
  let byWords = 0;
  // A record shown that is not broad: a broad one below it waits for "Show more".
  let specificAbove = false;
  // `deploymentApi.js` is about the record titled "Use Helm as deployment tool", not each one below it that says "deployment".
  let titled = false;
  const told = new Set<string>();
  // The packages that linked the records shown (`import:express`).
  const packages = new Set<string>();
  const folders = new Set<string>();
  const folderTold = (id: string): boolean => {
    const folder = links.byFolder.get(id);
    if (folder === undefined) return false;
    if (folders.has(folder)) return true;
    folders.add(folder);
    return false;
  };
  // Far weaker than the best record, or than the first one shown.
  const underFloor = (i: SuggestionItem, note: boolean): boolean => {
    const floor = note ? RELATIVE_FLOOR[0] : RELATIVE_FLOOR[Math.min(records, RELATIVE_FLOOR.length - 1)];
    return i.relevanceScore < best * floor || (!note && farBelowFirst(i));
  };
  const folded: SuggestionItem[] = [];
  const kept = sorted.filter((i) => {
    if (i.type !== 'decision') return true;
    const id = entryOf(i);
    const note = i.meta?.status === 'note';
    if (underFloor(i, note) || links.chance.has(id)) return false;
    const words = links.byWords.get(id);
    if (words !== undefined && (++byWords > MOST_BY_WORDS || records > 0)) return false;
    if (titled && links.byMention.has(id)) return false;
    const word = links.word.get(id);
    // Two records about the module the file imports (`sse_manager`: "Use SSE", "Dual SSE architecture"), or about
    // the rare word the definition is named after (`permanent-failure`), are both about it.
    const same = links.sameTopic.has(id) && word !== undefined && told.has(word);
    const broad = links.broad.get(id);
    if (broad !== undefined && specificAbove) {
      folded.push(repositoryWide(i, broad));
      return false;
    }
    // A package a record only mentions, below another record: one of many records that mention it ("Preview
    // deployment" for `@google-cloud/pubsub`), unless the records above are about the file's other packages.
    const mentionBelow = records > 0 && links.mentionsPackage.has(id) && ![...packages].some((p) => p !== word);
    // Records under the folder of a record above (`templates/subsidy_access_policy/` and three records on
    // access policies): the folder has told its record.
    if (foldsAt(records, id, links, same) || folderTold(id) || mentionBelow) {
      folded.push(i);
      return false;
    }
    // Three records by "taxonomy": the word has told its record; the next one it links is one of many.
    if (word !== undefined && records === VISIBLE - 1 && told.has(word) && links.wordsOnly.has(id)) return false;
    if (word !== undefined) told.add(word);
    if (word?.startsWith('import:')) packages.add(word);
    if (links.byTitle.has(id)) titled = true;
    if (!note && broad === undefined) specificAbove = true;
    if (!note && records++ === 0) {
      first = i.relevanceScore;
      firstByWords = links.wordsOnly.has(id);
    }
    return true;
  });
  return [...kept, ...foldBelow(kept, folded)];
}

/** A broad record, said to be one: its words link it to much of the code, this file among them. */
function repositoryWide(i: SuggestionItem, share: number): SuggestionItem {
  const tenths = Math.max(1, Math.round(share * 10));
  return {
    ...i,
    // Said first: a narrow side bar cuts the end of a reason.
    reason: `repository-wide · ${i.reason} (its words link it to ${tenths} file${tenths > 1 ? 's' : ''} in 10)`,
  };
}

/**
 * Whether the record waits for "Show more" when `records` are shown above it: one linked by the weakest
 * evidence below another, or, in the last place shown, one linked by a word of the code alone. That place
 * is for a record naming this code, or one titled by a package the file imports (`app.ts` with Express,
 * Helmet and Redis): over 33 repositories of the panel benchmark, records about the file's name or a
 * package it only mentions were noise in third place in 11 of 16 places and wanted in none; over 62, those
 * about a word of the definition's name were noise in 7 places and wanted in 1.
 */
function foldsAt(records: number, id: string, links: WordLinks, same: boolean): boolean {
  if (records > 0 && records < VISIBLE && links.weak.has(id) && !same) return true;
  if (records > 0 && links.commonName.has(id)) return true;
  return records === VISIBLE - 1 && links.wordsOnly.has(id) && !links.titledPackage.has(id);
}

/**
 * Records whose link tells one record at most, below the records shown: listed after them, with a
 * relevance under the last one's, and marked to wait for "Show N more". A reader who expands the group
 * still finds them.
 */
function foldBelow(kept: readonly SuggestionItem[], folded: readonly SuggestionItem[]): SuggestionItem[] {
  const last = Math.min(...kept.filter((i) => i.type === 'decision').map((i) => i.relevanceScore));
  return folded.map((i, k) => ({
    ...i,
    relevanceScore: Math.max(0, Math.min(i.relevanceScore, last - FOLD_STEP * (k + 1))),
    meta: { ...i.meta, folded: true },
  }));
}
