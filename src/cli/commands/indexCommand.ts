import { noPositionals, print, withService, type CliCommand } from './command';

export const indexCommand: CliCommand = {
  name: 'index',
  summary: 'build or refresh the index; prints its stats',
  usage: 'index --root R [--json]',
  description: 'Builds or refreshes the workspace index and prints the store statistics.',
  flags: {},
  async run(args) {
    noPositionals(args);
    return withService(args, async (service) => {
      const work = await service.refreshAll();
      service.flush();
      const stats = { root: service.root, ...service.storeStats(), ...work };
      print(
        args,
        stats,
        [
          `root        ${stats.root}`,
          `state dir   ${stats.stateDir}`,
          `schema      durable v${stats.schema.durable}, index v${stats.schema.index}`,
          `code        ${work.index.files} files (${work.index.parsed} parsed, ${work.index.skipped} unchanged), ${work.index.symbols} definitions, ${work.index.calls} calls, ${work.index.imports} imports in ${(work.index.ms / 1000).toFixed(2)} s${work.index.capped ? ` — capped at ${work.index.capped.limit} (${work.index.capped.reason})` : ''}`,
          ...work.sources.map((s) => `${s.name.padEnd(12)}${s.entries} entries from ${s.files} files`),
          ...work.decisionFolders.map((f) => `  ${f.path}: ${f.records} records (found by ${f.foundBy})`),
          `durable     ${stats.durableBytes} bytes`,
          `index db    ${stats.indexBytes} bytes`,
        ].join('\n'),
      );
      return 0;
    });
  },
};
