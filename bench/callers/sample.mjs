// The seeded symbol sample both callers benchmarks measure on.

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
