// What both callers benchmarks share: the seeded symbol sample and how found call sites are scored.

/**
 * The n symbols whose (seeded) hash of path, container and name is smallest: two versions of the
 * index whose symbol lists differ a little still get (almost) the same sample.
 */
export function stableSample(list, n, seed) {
  const rank = (s) => fnv1a(`${seed}:${s.path}:${s.container ?? ''}.${s.name}`);
  return list
    .map((s) => [rank(s), s])
    .sort((a, b) => a[0] - b[0] || a[1].start_line - b[1].start_line)
    .slice(0, n)
    .map(([, s]) => s);
}

function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The call sites the index found, at each confidence cut: all, resolved and likely, resolved only. */
export function confidenceSets(got, key) {
  return {
    all: new Set(got.map(key)),
    resolvedLikely: new Set(got.filter((c) => c.confidence !== 'name').map(key)),
    resolved: new Set(got.filter((c) => c.confidence === 'resolved').map(key)),
  };
}

/** Adds each cut's true and false positives and misses against `truth` to `totals`; returns each cut's true positives. */
export function tally(totals, sets, truth) {
  const tps = {};
  for (const [k, set] of Object.entries(sets)) {
    let tp = 0;
    for (const x of set) if (truth.has(x)) tp++;
    totals[k].tp += tp;
    totals[k].fp += set.size - tp;
    totals[k].fn += truth.size - tp;
    tps[k] = tp;
  }
  return tps;
}
