import { resolve } from 'node:path';
import { loggerOf, noPositionals, print, withService, type CliCommand } from './command';
import { productVersion } from './snapshotFlags';

export const indexCommand: CliCommand = {
  name: 'index',
  summary: 'build or refresh the index; prints its stats',
  usage: 'index --root R [--snapshot FILE|URL] [--export FILE] [--json]',
  description:
    'Builds or refreshes the workspace index and prints the store statistics. With --snapshot it starts from a team index snapshot and catches up to HEAD and the uncommitted work; ' +
    'with --export it then writes a snapshot of the index at HEAD (and FILE.sha256) for the team: it holds the code index and the mined history, never subscriptions, feedback or memory.',
  flags: {
    export: { type: 'string', value: 'FILE', description: 'write a team index snapshot of the index at HEAD to FILE' },
  },
  async run(args) {
    noPositionals(args);
    return withService(args, async (service) => {
      const work = await service.workspace.refreshAll();
      service.workspace.flush();
      const exported =
        typeof args.flags.export === 'string'
          ? await service.workspace.exportSnapshot(resolve(args.flags.export), productVersion())
          : undefined;
      if (exported && work.index.capped)
        loggerOf(args).warn(
          `The code index stopped at its ${work.index.capped.reason} limit (${work.index.capped.limit}): the snapshot holds the files indexed so far, and each editor indexes the rest.`,
        );
      const stats = {
        root: service.root,
        ...service.workspace.storeStats(),
        ...work,
        ...(exported ? { exported } : {}),
      };
      print(
        args,
        stats,
        [
          `root        ${stats.root}`,
          `state dir   ${stats.stateDir}`,
          `schema      durable v${stats.schema.durable}, index v${stats.schema.index}`,
          `code        ${work.index.files} files (${work.index.parsed} parsed, ${work.index.skipped} unchanged, ${work.index.read} read), ${work.index.symbols} definitions, ${work.index.calls} calls, ${work.index.imports} imports in ${(work.index.ms / 1000).toFixed(2)} s${work.index.capped ? ` — capped at ${work.index.capped.limit} (${work.index.capped.reason})` : ''}`,
          ...work.sources.map((s) => `${s.name.padEnd(12)}${s.entries} entries from ${s.files} files`),
          ...work.decisionFolders.map((f) => `  ${f.path}: ${f.records} records (found by ${f.foundBy})`),
          `durable     ${stats.durableBytes} bytes`,
          `index db    ${stats.indexBytes} bytes`,
          ...(work.snapshot ? [`snapshot    ${work.snapshot.status}: ${work.snapshot.message}`] : []),
          ...(exported
            ? [
                `exported    ${exported.file} (${exported.bytes} bytes, commit ${exported.commit.slice(0, 12)}, sha256 ${exported.sha256})`,
              ]
            : []),
        ].join('\n'),
      );
      return 0;
    });
  },
};
