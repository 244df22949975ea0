import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LabelsError } from '../../measure/eval/labelFile';
import {
  combine,
  runPanelEval,
  type PanelEvalResult,
  type PanelFigures,
  type PanelRepoResult,
} from '../../measure/eval/panelEval';
import { readPanelLabels, type PanelLabels } from '../../measure/eval/panelLabels';
import { PANEL_ITEM_TYPES } from '../../shared/protocol';
import { UsageError, type ParsedArgs } from '../args';
import { loggerOf } from './command';
import { snapshotSourceOf } from './snapshotFlags';

const SETS = ['reported', 'check', 'all'] as const;

/** The label files and the checkout each one is run on. */
function runsOf(args: ParsedArgs): { root: string; labels: PanelLabels }[] {
  if (typeof args.flags.labels !== 'string')
    throw new UsageError('eval panel needs --labels FILE (or a folder of label files with --repos DIR)');
  const set = args.flags.set ?? undefined;
  if (set !== undefined && !SETS.includes(set as (typeof SETS)[number]))
    throw new UsageError(`--set must be one of ${SETS.join(', ')}`);
  if (args.flags.root !== undefined && args.flags.repos !== undefined)
    throw new UsageError('give --root (one checkout) or --repos (a folder of checkouts), not both');
  const path = resolve(args.flags.labels);
  if (!existsSync(path)) throw new UsageError(`--labels ${path} does not exist`);
  const folder = statSync(path).isDirectory();
  const files = folder
    ? readdirSync(path)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(path, f))
    : [path];
  if (files.length === 0) throw new UsageError(`--labels ${path} holds no .json label files`);
  let all: PanelLabels[];
  try {
    all = files.map(readPanelLabels);
  } catch (err) {
    if (err instanceof LabelsError) throw new UsageError(err.message);
    throw err;
  }
  // A folder runs the reported set unless asked; a single file runs whatever it is.
  const wanted = set ?? (folder ? 'reported' : 'all');
  const chosen = all.filter((l) => wanted === 'all' || l.set === wanted);
  if (chosen.length === 0) throw new UsageError(`no label file in ${path} is in the ${String(wanted)} set`);
  if (args.flags.repos === undefined) {
    if (chosen.length > 1)
      throw new UsageError(
        'several label files need --repos DIR, the folder holding a checkout per repository (owner__name)',
      );
    const root = resolve(String(args.flags.root ?? process.cwd()));
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--root ${root} is not a folder`);
    return [{ root, labels: chosen[0] }];
  }
  const repos = resolve(String(args.flags.repos));
  return chosen.map((labels) => {
    const root = join(repos, labels.repo.replace('/', '__'));
    if (!existsSync(root))
      throw new UsageError(`no checkout of ${labels.repo} at ${root} (node bench/panel/checkout.mjs --out ${repos})`);
    return { root, labels };
  });
}

/** `eval panel`: precision, noise and recall of what the panel shows at labelled places. */
export async function runPanelEvalCommand(args: ParsedArgs): Promise<number> {
  for (const f of ['replay', 'window', 'seed', 'with-change'] as const)
    if (args.flags[f] !== undefined) throw new UsageError(`--${f} is for eval cochange, not eval panel`);
  const runs = runsOf(args);
  const snapshot = snapshotSourceOf(args);
  if (snapshot && runs.length > 1)
    throw new UsageError('a snapshot is for one checkout: give --root and one label file, not --repos');
  const results: PanelRepoResult[] = [];
  for (const { root, labels } of runs) {
    if (!args.flags.json && runs.length > 1)
      process.stderr.write(`eval panel: ${labels.repo} (${labels.cases.length} cases)…\n`);
    results.push(
      await runPanelEval(
        root,
        labels,
        {
          stateDir: runs.length === 1 ? (args.flags['state-dir'] as string | undefined) : undefined,
          ...(snapshot ? { snapshot } : {}),
        },
        loggerOf(args),
      ),
    );
  }
  const r = combine(results);
  if (args.flags.json) {
    const strip = (x: PanelRepoResult) => (args.flags.verbose ? x : { ...x, perCase: undefined });
    process.stdout.write(JSON.stringify({ ...r, repos: r.repos.map(strip) }, null, 2) + '\n');
    return 0;
  }
  process.stdout.write(formatPanelEval(r, Boolean(args.flags.verbose)) + '\n');
  return 0;
}

const f3 = (x: number) => x.toFixed(3);

function row(name: string, x: PanelFigures): string {
  return `${name.padEnd(44)}${String(x.cases).padStart(5)}  ${f3(x.precision)}  ${f3(x.noisePerPanel).padStart(6)}  ${f3(x.decisionNoisePerPanel).padStart(8)}  ${f3(x.recall)}`;
}

function formatPanelEval(r: PanelEvalResult, verbose: boolean): string {
  const lines = [`${'repository'.padEnd(44)}cases  prec.  noise/  dec.noise/  recall`, `${''.padEnd(57)}panel   panel`];
  for (const x of r.repos)
    lines.push(row(`${x.repo}${x.set === 'check' ? ' (check)' : ''}`, x) + (x.note ? `  (${x.note})` : ''));
  if (r.repos.length > 1) lines.push(row('all', r));
  lines.push('', 'kind           shown  correct  noise  precision  expected  found  recall');
  for (const k of PANEL_ITEM_TYPES) {
    const x = r.byKind[k];
    lines.push(
      `${k.padEnd(15)}${String(x.shown).padStart(5)}  ${String(x.correct).padStart(7)}  ${String(x.noise).padStart(5)}  ${f3(x.precision).padStart(9)}  ${String(x.expected).padStart(8)}  ${String(x.found).padStart(5)}  ${f3(x.recall)}`,
    );
  }
  if (verbose) {
    const mark = { correct: '✓', noise: '✗', neutral: '~' } as const;
    for (const x of r.repos)
      for (const c of x.perCase) {
        lines.push(
          '',
          `${x.repo}  ${c.file}${c.line ? `:${c.line}` : ''}${c.symbol ? ` ${c.symbol}` : ''}${c.range ? ` [${c.range.start}-${c.range.end}]` : ''}`,
        );
        if (c.items.length === 0) lines.push('  (nothing shown)');
        for (const i of c.items) lines.push(`  ${mark[i.verdict]} ${i.type.padEnd(12)} ${i.target}  — ${i.why}`);
        const missed = c.expected.filter((e) => !e.found);
        if (missed.length)
          lines.push(
            `  missed: ${missed.map((e) => `${e.kind} ${e.kind === 'change' ? e.key.slice(0, 12) : e.key}`).join(', ')}`,
          );
      }
  }
  return lines.join('\n');
}
