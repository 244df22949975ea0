import type { GitService } from '../../git/gitService';
import type { SuggestionItem } from '../../types';

/**
 * A merge that says only where from: `Merge branch 'stable'` (or `Merge branch 2.3.x`, typed by
 * hand), `Merge remote-tracking branch 'origin/3.0.x'`, `Merge branch 'x' of github.com:o/r`,
 * `Merge tag 'v2.1'`, and GitHub's `Merge commit from fork` for a security fix made in a private fork.
 */
const PLAIN_MERGE =
  /^Merge (?:(?:remote-tracking )?branch|tag) (?:'([^']{1,200})'|([^\s']{1,200}))(?: of \S{1,300})?(?: into \S{1,200})?$|^Merge commit from (fork)$/;

/** Where a plain merge came from, as the title says it: `stable`, `a fork`. */
function mergedFrom(subject: string): string | undefined {
  const m = PLAIN_MERGE.exec(subject);
  return m ? (m[1] ?? m[2] ?? `a ${m[3]}`) : undefined;
}
/** Merges looked into at once, and answers kept. */
const PARALLEL = 4;
const CACHED = 500;
/** Bound on one look, within the source's own. */
const TIMEOUT_MS = 1_500;

/**
 * Says what a plain branch merge brought. First-parent history shows `Merge branch 'stable'` as the
 * change to a file; the commits it merged are the changes: "Prevent scientific notation (#3147),
 * merged from stable", with how many more there were. Answers are kept by merge and file.
 */
export class MergedWork {
  private readonly cache = new Map<string, Promise<string[]>>();

  constructor(private readonly git: Pick<GitService, 'mergedSubjects'>) {}

  /** Retitles, in place, the commit items that are plain merges. */
  async retitle(items: SuggestionItem[], signal?: AbortSignal): Promise<void> {
    const merges = items.filter((i) => i.type === 'change' && i.location.commit && mergedFrom(i.title) !== undefined);
    for (let at = 0; at < merges.length && !signal?.aborted; at += PARALLEL) {
      await Promise.all(merges.slice(at, at + PARALLEL).map((item) => this.retitleOne(item, signal)));
    }
  }

  private async retitleOne(item: SuggestionItem, signal?: AbortSignal): Promise<void> {
    const branch = mergedFrom(item.title);
    const commit = item.location.commit;
    if (!branch || !commit) return;
    const key = `${commit}\0${item.location.path}`;
    let subjects = this.cache.get(key);
    if (!subjects) {
      const stop = signal
        ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)])
        : AbortSignal.timeout(TIMEOUT_MS);
      subjects = this.git.mergedSubjects(commit, item.location.path, { signal: stop, timeoutMs: TIMEOUT_MS });
      this.cache.set(key, subjects);
      // A look cut short is asked again next time.
      void subjects.then((s) => {
        if (!s.length && stop.aborted) this.cache.delete(key);
      });
      if (this.cache.size > CACHED) this.cache.delete(this.cache.keys().next().value as string);
    }
    const found = await subjects;
    if (!found.length) return;
    const more = found.length - 1;
    item.meta = { ...item.meta, merge: item.title };
    item.title = `${found[0]}${more ? ` and ${more} more` : ''}, merged from ${branch}`;
  }
}
