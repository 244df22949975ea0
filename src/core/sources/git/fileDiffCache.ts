import type { GitService } from '../../git/gitService';
import type { Hunk } from '../../git/hunks';

interface Revision {
  hash: string;
  parent?: string;
}
type CallOptions = { signal: AbortSignal; timeoutMs: number };

/** Files whose diffs are kept; each holds at most the few hundred commits line history looks at. */
const FILES = 24;

/** What one file's history has told so far, by commit and parent. */
interface FileFacts {
  diffs: Map<string, Hunk[]>;
  /** The name before a commit that wrote the file whole ('' when it was not a rename). */
  renamedFrom: Map<string, string>;
  renameDiffs: Map<string, Hunk[]>;
}

/**
 * A file's diffs in the commits of its history, and what a commit that wrote it whole renamed, kept
 * by path and commit: facts of history that no edit or save changes. Every definition of a file
 * follows its lines back through the same commits, so once one was asked the next is answered from
 * here. That matters beyond git's own time: `spawn` holds the extension host's thread while it forks
 * (50–300 ms for a large host), so a git process per cursor move is a block the user feels.
 */
export class FileDiffCache {
  private readonly files = new Map<string, FileFacts>();

  constructor(private readonly git: Pick<GitService, 'fileDiffs' | 'renamedFrom' | 'renameDiff'>) {}

  /** Forgets everything (HEAD moved: the commits looked at change, and the memory is given back). */
  clear(): void {
    this.files.clear();
  }

  /**
   * The file's diff in each revision; git is asked only for those not known yet, in one call. A
   * revision missing from the answer (a binary file, git stopped) is missing here too.
   */
  async diffs(path: string, revisions: readonly Revision[], options: CallOptions): Promise<Map<string, Hunk[]>> {
    const facts = this.facts(path);
    const missing = revisions.filter((r) => !facts.diffs.has(keyOf(r.hash, r.parent)));
    if (missing.length) {
      const fetched = await this.git.fileDiffs(path, missing, options);
      // A stopped call may have said less than git knows: nothing of it is kept.
      if (!options.signal.aborted)
        for (const r of missing) {
          const hunks = fetched.get(r.hash);
          if (hunks) facts.diffs.set(keyOf(r.hash, r.parent), hunks);
        }
      if (options.signal.aborted) return fetched;
    }
    const out = new Map<string, Hunk[]>();
    for (const r of revisions) {
      const hunks = facts.diffs.get(keyOf(r.hash, r.parent));
      if (hunks) out.set(r.hash, hunks);
    }
    return out;
  }

  /** The path the file had before `commit` renamed it, if it did. */
  async renamedFrom(path: string, commit: string, parent: string, options: CallOptions): Promise<string | undefined> {
    const facts = this.facts(path);
    const key = keyOf(commit, parent);
    const known = facts.renamedFrom.get(key);
    if (known !== undefined) return known || undefined;
    const from = await this.git.renamedFrom(path, commit, parent, options);
    if (!options.signal.aborted) facts.renamedFrom.set(key, from ?? '');
    return from;
  }

  /** The diff of a rename from `from`, in the new file's lines. */
  async renameDiff(
    from: string,
    path: string,
    commit: string,
    parent: string,
    options: CallOptions,
  ): Promise<Hunk[] | undefined> {
    const facts = this.facts(path);
    const key = `${keyOf(commit, parent)}\0${from}`;
    const known = facts.renameDiffs.get(key);
    if (known) return known;
    const hunks = await this.git.renameDiff(from, path, commit, parent, options);
    if (hunks && !options.signal.aborted) facts.renameDiffs.set(key, hunks);
    return hunks;
  }

  /** The file's facts, made the most recently used. */
  private facts(path: string): FileFacts {
    let facts = this.files.get(path);
    if (facts) this.files.delete(path);
    else facts = { diffs: new Map(), renamedFrom: new Map(), renameDiffs: new Map() };
    this.files.set(path, facts);
    if (this.files.size > FILES) this.files.delete(this.files.keys().next().value as string);
    return facts;
  }
}

function keyOf(hash: string, parent: string | undefined): string {
  return parent ? `${hash} ${parent}` : hash;
}
