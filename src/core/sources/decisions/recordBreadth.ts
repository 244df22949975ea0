import { TimeSlice } from '../../timeSlice';

/** Files read to tell how broad each record is: enough to tell one in eight, bounded for large workspaces. */
export const BREADTH_SAMPLE = 240;

/** A link of one sampled file, as the linker gives it. */
export interface SampledLink {
  /** The record's linker key (its path, or `path#line` for an entry of a log). */
  path: string;
  /** Linked by common words only: not shown, so it does not make the record broad. */
  unspecific?: boolean;
}

export interface BreadthInput {
  /** The workspace's code files, in any order. */
  paths: readonly string[];
  /** The records the linker links one file to by its words (what the panel would show for it). */
  link(path: string): Promise<readonly SampledLink[]> | readonly SampledLink[];
  /** Files sampled at most (default BREADTH_SAMPLE). */
  sample?: number;
  slice?: TimeSlice;
  /** True once the answer would no longer be used: stop reading files. */
  stale?: () => boolean;
}

/** How broad each record is, and over how many files that was told. */
export interface RecordBreadth {
  /** Share of the sampled files each record's words link it to, by linker key; records linked to none are absent. */
  shares: ReadonlyMap<string, number>;
  sampled: number;
}

/**
 * Every n-th file of the sorted paths, up to `size` of them: the same sample for the same workspace,
 * spread over all its folders.
 */
export function sampleOf(paths: readonly string[], size: number): string[] {
  const sorted = [...paths].sort();
  if (sorted.length <= size) return sorted;
  const step = sorted.length / size;
  const out: string[] = [];
  for (let i = 0; i < size; i++) out.push(sorted[Math.floor(i * step)]);
  return out;
}

/**
 * How broad each record is: the share of a sample of the workspace's code files that its words link it
 * to. A record words link to a large share of the files (an architecture overview that speaks of the
 * service's own domain, a front-end stack that names every package the app imports) is not about any one
 * of them, however specific each link looks on its own.
 */
export async function measureBreadth(input: BreadthInput): Promise<RecordBreadth> {
  const files = sampleOf(input.paths, input.sample ?? BREADTH_SAMPLE);
  const slice = input.slice ?? new TimeSlice();
  const counts = new Map<string, number>();
  let sampled = 0;
  for (const file of files) {
    if (input.stale?.()) break;
    await slice.pause();
    const linked = new Set<string>();
    for (const l of await input.link(file)) if (!l.unspecific) linked.add(l.path);
    for (const key of linked) counts.set(key, (counts.get(key) ?? 0) + 1);
    sampled++;
  }
  const shares = new Map<string, number>();
  if (sampled) for (const [key, n] of counts) shares.set(key, n / sampled);
  return { shares, sampled };
}
