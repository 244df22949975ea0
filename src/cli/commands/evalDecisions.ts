import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { StderrLogger } from '../../core/api/types';
import { readDecisionLabels, runDecisionsEval } from '../../measure/eval/decisionsEval';
import { LabelsError } from '../../measure/eval/labelFile';
import { UsageError, type ParsedArgs } from '../args';
import { snapshotSourceOf } from './snapshotFlags';

/** `eval decisions --root R --labels FILE [--json]`: hit@5, MRR, discovery and noise of decision links. */
export async function runDecisionsEvalCommand(args: ParsedArgs): Promise<number> {
  for (const f of ['replay', 'window', 'seed'] as const)
    if (args.flags[f] !== undefined) throw new UsageError(`--${f} is for eval cochange, not eval decisions`);
  for (const f of ['repos', 'set'] as const)
    if (args.flags[f] !== undefined) throw new UsageError(`--${f} is for eval panel, not eval decisions`);
  if (typeof args.flags.labels !== 'string') throw new UsageError('eval decisions needs --labels FILE');
  const root = resolve(String(args.flags.root ?? process.cwd()));
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--root ${root} is not a folder`);
  let labels;
  try {
    labels = readDecisionLabels(resolve(args.flags.labels));
  } catch (err) {
    if (err instanceof LabelsError) throw new UsageError(err.message);
    throw err;
  }
  const snapshot = snapshotSourceOf(args);
  const r = await runDecisionsEval(
    root,
    labels,
    { stateDir: args.flags['state-dir'] as string | undefined, ...(snapshot ? { snapshot } : {}) },
    new StderrLogger(Boolean(args.flags.verbose)),
  );
  const f = (x: number) => x.toFixed(3);
  const lines = [
    `${r.repo} at ${r.commit.slice(0, 12)}${r.note ? ` (${r.note})` : ''}`,
    '',
    'cases  hit@5  MRR    discovered  expected records  noise/panel',
    `${String(r.cases).padEnd(7)}${f(r.hitAt5)}  ${f(r.mrr)}  ${f(r.discovered).padEnd(12)}${String(r.expectedRecords).padEnd(18)}${f(r.noisePerPanel)}`,
  ];
  if (r.missed.length) lines.push('', `not discovered: ${r.missed.join(', ')}`);
  if (args.flags.verbose) {
    lines.push('');
    for (const c of r.perCase)
      lines.push(
        `${c.rank ? `#${c.rank}` : 'miss'}  ${c.file}${c.line ? `:${c.line}` : ''}${c.symbol ? ` ${c.symbol}` : ''}  → ${c.shown.map((p) => p.slice(p.lastIndexOf('/') + 1)).join(', ') || '(none)'}`,
      );
  }
  process.stdout.write(args.flags.json ? JSON.stringify(r, null, 2) + '\n' : lines.join('\n') + '\n');
  return 0;
}
