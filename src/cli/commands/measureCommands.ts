import { runBench } from '../../measure/bench/bench';
import { formatBench } from '../../measure/bench/benchReport';
import { runCochangeEval } from '../../measure/eval/cochangeEval';
import { runDecisionsEvalCommand } from './evalDecisions';
import { runPanelEvalCommand } from './evalPanel';
import { UsageError } from '../args';
import { loggerOf, noPositionals, print, rootOf, wholeNumber, type CliCommand } from './command';
import { SNAPSHOT_FLAGS } from './snapshotFlags';

export const evalCommand: CliCommand = {
  name: 'eval',
  summary:
    'evaluate related-files ranking (eval cochange), decision linking (eval decisions) or the whole panel (eval panel) against labels',
  usage:
    'eval cochange --root R [--replay 300] [--window 2000] [--seed 42] [--with-change] [--json] | eval decisions --root R --labels FILE [--snapshot FILE|URL] [--json] | eval panel (--root R --labels FILE [--snapshot FILE|URL] | --repos DIR --labels DIR [--set reported|check|all]) [--json] [--verbose]',
  description:
    'eval cochange replays the last N commits that touch 2–20 source files; for each, one modified file is the query and the others are the answer, using only history before the commit and file contents at its parent (with --with-change, also the words of the lines the commit changed in the query file, as the panel has them from an uncommitted edit). Reports recall@5, recall@10, MRR, hit@10 and latency for the related-files ranking and for a plain ROSE-style co-change baseline computed in the same run. ' +
    'eval decisions indexes a checkout and, for each labelled file, ranks decision records as the panel would; it reports hit@5, MRR, the share of records discovered and the decision items per panel that are neither expected nor acceptable. ' +
    "eval panel asks, for each labelled place, for the panel's first and enriched answers, keeps the items visible without expanding a group and judges each against the labels and git (bulk commits excluded); it reports precision by kind and overall, noise and decision noise per panel and recall of the expected items; --verbose lists every shown item with ✓, ✗ or ~.",
  flags: {
    replay: { type: 'number', value: 'N', description: 'commits to replay (default 300)' },
    window: {
      type: 'number',
      value: 'N',
      description: 'commits before each one that the model learns from (default 2000)',
    },
    seed: { type: 'number', value: 'N', description: 'seed for choosing the query file (default 42)' },
    'with-change': {
      type: 'boolean',
      description: 'eval cochange: the query also carries what changed in its file (the words of its diff)',
    },
    labels: {
      type: 'string',
      value: 'FILE',
      description: 'label file for eval decisions and eval panel (eval panel: or a folder of them, with --repos)',
    },
    repos: {
      type: 'string',
      value: 'DIR',
      description: 'eval panel: folder with one checkout per labelled repository (owner__name)',
    },
    set: {
      type: 'string',
      value: 'SET',
      description: 'eval panel with a folder of labels: reported (default), check or all',
    },
    // eval decisions and eval panel open the index; eval cochange replays history from git alone.
    ...SNAPSHOT_FLAGS,
  },
  async run(args) {
    if (args.positionals[0] === 'decisions' && args.positionals.length === 1) return runDecisionsEvalCommand(args);
    if (args.positionals[0] === 'panel' && args.positionals.length === 1) return runPanelEvalCommand(args);
    if (args.positionals[0] !== 'cochange' || args.positionals.length > 1)
      throw new UsageError("eval needs the evaluation to run: 'eval cochange', 'eval decisions' or 'eval panel'");
    for (const f of ['repos', 'set'] as const)
      if (args.flags[f] !== undefined) throw new UsageError(`--${f} is for eval panel, not eval cochange`);
    if (args.flags.labels !== undefined) throw new UsageError('--labels is for eval decisions, not eval cochange');
    if (args.flags.snapshot !== undefined)
      throw new UsageError(
        '--snapshot is for eval decisions and eval panel: eval cochange reads no index, it replays history from git',
      );
    const withChange = Boolean(args.flags['with-change']);
    const replay = wholeNumber(args, 'replay');
    const window = wholeNumber(args, 'window');
    const root = rootOf(args);
    const r = await runCochangeEval(
      root,
      { replay, window, seed: args.flags.seed as number | undefined, withChange },
      loggerOf(args),
    );
    const pct = (x: number) => x.toFixed(3);
    const text = [
      `queries ${r.queries}${withChange ? " with the words of each query file's change" : ''}${r.head ? ` at ${r.head.slice(0, 12)}` : ''}${r.note ? ` (${r.note})` : ''}`,
      '',
      'ranking          recall@5  recall@10  MRR    hit@10',
      `related files    ${pct(r.recallAt5)}     ${pct(r.recallAt10)}      ${pct(r.mrr)}  ${pct(r.hitAt10)}`,
      `ROSE baseline    ${pct(r.baseline.recallAt5)}     ${pct(r.baseline.recallAt10)}      ${pct(r.baseline.mrr)}  ${pct(r.baseline.hitAt10)}`,
      '',
      `recall@10 ratio  ${r.baseline.recallAt10 > 0 ? (r.recallAt10 / r.baseline.recallAt10).toFixed(2) : 'n/a'}×`,
      `query latency    p50 ${r.latencyMs.p50} ms, p95 ${r.latencyMs.p95} ms`,
    ].join('\n');
    print(args, r, text);
    return r.queries > 0 ? 0 : 1;
  },
};

export const bench: CliCommand = {
  name: 'bench',
  summary: 'measure indexing, updates and query latency on a folder',
  usage: 'bench --root R [--samples 200] [--seed 42] [--json]',
  description:
    'Cold index and history mining, a warm start (a new engine to its first suggestion), single-file updates, callers / related-files / suggest latency (p50, p95) on sampled files, the slow second pass, peak memory and where it goes, in a temporary state directory.',
  flags: {
    samples: { type: 'number', value: 'N', description: 'files to sample for query latency (default 200)' },
    seed: { type: 'number', value: 'N', description: 'sampling seed (default 42)' },
  },
  async run(args) {
    noPositionals(args);
    const root = rootOf(args);
    const quiet = Boolean(args.flags.json);
    const r = await runBench(
      root,
      { samples: args.flags.samples as number | undefined, seed: args.flags.seed as number | undefined },
      loggerOf(args),
      (step) => quiet || process.stderr.write(`bench: ${step}…\n`),
    );
    print(args, r, formatBench(r));
    return 0;
  },
};
