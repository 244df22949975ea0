import { strict as assert } from 'node:assert';
import { resolveConfig } from '../../../src/core/config';
import { openEngine } from '../../../src/core/engine';
import { discoverDecisions, isDecisionFolderName } from '../../../src/core/sources/decisions/adrDiscovery';
import { classifyStatus } from '../../../src/core/sources/decisions/adrParser';
import { DecisionSource } from '../../../src/core/sources/decisions/decisionSource';
import { TempRepo } from '../git/repoFixture';

const nygard = (n: number, title: string, status = 'Accepted') =>
  `# ${n}. ${title}\n\nDate: 2024-01-0${(n % 9) + 1}\n\n## Status\n\n${status}\n\n## Context\n\nWhy ${title}.\n\n## Decision\n\nWe ${title}.\n\n## Consequences\n\nFine.\n`;
const plain = (title: string, body: string) => `# ${title}\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;
const frontMatter = (title: string, body: string) =>
  `---\ntitle: "${title}"\n---\n\n## Background\n\n${body}\n\n## Decision\n\n${body}\n`;

describe('decision discovery', () => {
  let repo: TempRepo;
  afterEach(() => repo?.dispose());

  async function discover(files: Record<string, string>, configured: string[] = []) {
    repo = new TempRepo();
    repo.commit('files', files);
    return discoverDecisions(repo.dir, { configured });
  }

  const folders = (r: Awaited<ReturnType<typeof discover>>) =>
    r.folders.map((f) => `${f.reason}:${f.path}:${f.records}`);
  const paths = (r: Awaited<ReturnType<typeof discover>>) => r.files.map((f) => f.path).sort();

  it('recognizes decision folder names in any case, with - or _, written as one word', () => {
    for (const name of [
      'adr',
      'ADRs',
      '.adr',
      'decisions',
      'decision-records',
      'architecture_decisions',
      'architecture-decision-record',
      'ArchitectureDecisionRecords',
      'decisionrecords',
      'historic-adrs',
    ]) {
      assert.ok(isDecisionFolderName(name), name);
    }
    for (const name of ['docs', 'architecture', 'address', 'guides', 'madrid'])
      assert.ok(!isDecisionFolderName(name), name);
  });

  it('finds numbered records in a conventionally named folder at any depth', async () => {
    const r = await discover({
      'doc/architecture-decisions/0001-record-decisions.md': nygard(1, 'Record decisions'),
      'doc/architecture-decisions/0002-use-postgres.md': nygard(2, 'Use Postgres'),
      'doc/architecture-decisions/README.md': '# Decisions\n\n* [1](0001-record-decisions.md)\n',
      'services/billing/decisions/0001-bill-monthly.md': nygard(1, 'Bill monthly'),
      'src/index.ts': 'export {};\n',
    });
    assert.deepEqual(folders(r), ['name:doc/architecture-decisions:2', 'name:services/billing/decisions:1']);
    assert.ok(!paths(r).includes('doc/architecture-decisions/README.md'), 'an index is not a record');
  });

  it('reads front-matter-only records in area folders, with folder status, and skips the folder index', async () => {
    repo = new TempRepo();
    repo.commit('adrs', {
      'contributing/ADRs/ADRs.md': '---\ntitle: ADR Overview\n---\n\nAll records.\n',
      'contributing/ADRs/front-end/preferred-data-fetching-method.md': frontMatter(
        'ADR: Preferred data fetching method',
        'Fetch with `useSWR`.',
      ),
      'contributing/ADRs/front-end/deprecated/preferred-styles-import-placement.md': frontMatter(
        'ADR: preferred styles import placement',
        'Styles at the bottom.',
      ),
      'contributing/ADRs/back-end/sql-standards.md': frontMatter('ADR: SQL standards', 'Use snake_case columns.'),
      'contributing/ADRs/overarching/logging.md': frontMatter('ADR: Logging', 'Log errors with their cause.'),
    });
    const source = new DecisionSource({ root: repo.dir, config: resolveConfig() });
    await source.refresh();
    const byPath = new Map(source.list().map((d) => [d.path, d]));
    assert.equal(byPath.size, 4);
    assert.ok(!byPath.has('contributing/ADRs/ADRs.md'));
    const fetching = byPath.get('contributing/ADRs/front-end/preferred-data-fetching-method.md')!;
    assert.equal(fetching.title, 'Preferred data fetching method');
    assert.deepEqual(fetching.area, ['front-end']);
    assert.equal(fetching.status, 'unknown');
    const styles = byPath.get('contributing/ADRs/front-end/deprecated/preferred-styles-import-placement.md')!;
    assert.equal(styles.status, 'deprecated', 'the deprecated/ folder gives the status');
    assert.deepEqual(styles.area, ['front-end']);
    assert.deepEqual(source.whereLooked().folders, [{ path: 'contributing/ADRs', reason: 'name', records: 4 }]);
  });

  it('finds records in a monorepo package with historic and proposed siblings, but not numbered guide chapters', async () => {
    const r = await discover({
      'packages/api/package.json': '{"name":"api"}\n',
      'packages/api/docs/architecture/001-use-knex.md': plain('Use Knex', 'Queries go through knex.'),
      'packages/api/docs/architecture/002-use-zod.md': plain('Use zod', 'Validate input with zod.'),
      'packages/api/docs/architecture/overview.md': '# Overview\n\nThe API.\n',
      'packages/api/docs/architecture/historic-adrs/use-mongo.md': plain('Use Mongo', 'We stored documents.'),
      'packages/api/docs/architecture/proposed-adrs/rendering-type.md': plain('Rendering type', 'Add a type.'),
      'docs/guide/01-install.md': '# Install\n\nRun npm install.\n',
      'docs/guide/02-configure.md': '# Configure\n\nEdit the file.\n',
    });
    assert.deepEqual(folders(r).sort(), [
      'name:packages/api/docs/architecture/historic-adrs:1',
      'name:packages/api/docs/architecture/proposed-adrs:1',
      'shape:packages/api/docs/architecture:2',
    ]);
    const status = new Map(r.files.map((f) => [f.path, f.folderStatus]));
    assert.equal(status.get('packages/api/docs/architecture/historic-adrs/use-mongo.md'), 'deprecated');
    assert.equal(status.get('packages/api/docs/architecture/proposed-adrs/rendering-type.md'), 'proposed');
    assert.ok(
      !paths(r).includes('packages/api/docs/architecture/overview.md'),
      'a page without record shape beside records is not one',
    );
  });

  it('reads .mdx and reStructuredText records', async () => {
    repo = new TempRepo();
    repo.commit('records', {
      'docs/adr/0001-use-mdx.mdx': nygard(1, 'Use MDX'),
      'docs/decisions/0002-app-label-prefix.rst':
        '2. App Label Prefix\n===================\n\nContext\n-------\n\nCollisions.\n\nDecision\n--------\n\nPrefix every ``label`` with ``oel_``.\n',
    });
    const source = new DecisionSource({ root: repo.dir });
    await source.refresh();
    const titles = source
      .list()
      .map((d) => `${d.label}:${d.title}`)
      .sort();
    assert.deepEqual(titles, ['0001:Use MDX', '0002:App Label Prefix']);
    const rst = source.list().find((d) => d.path.endsWith('.rst'))!;
    assert.deepEqual(
      rst.sectionList.map((s) => s.heading),
      ['2. App Label Prefix', 'Context', 'Decision'],
    );
  });

  it('puts .adr-dir, log4brains and the setting first, and does not guess by shape when a tool says where records are', async () => {
    const r = await discover(
      {
        '.adr-dir': 'architecture/log\n',
        'architecture/log/0001-use-queues.md': nygard(1, 'Use queues'),
        '.log4brains.yml':
          '---\nproject:\n  adrFolder: ./docs/adr # the global ones\n  packages:\n    - name: web\n      adrFolder: ./packages/web/docs/adr\n',
        'docs/adr/20200924-use-markdown.md': '# Use Markdown\n\n- Status: accepted\n',
        'packages/web/docs/adr/20200925-use-nextjs.md': '# Use Next.js\n\n- Status: accepted\n',
        'notes/records/0001-a.md': nygard(1, 'A'),
        'notes/records/0002-b.md': nygard(2, 'B'),
        'team/choices/0001-c.md': nygard(1, 'C'),
      },
      ['team/choices'],
    );
    assert.deepEqual(folders(r), [
      'adr-dir:architecture/log:1',
      'log4brains:docs/adr:1',
      'log4brains:packages/web/docs/adr:1',
      'setting:team/choices:1',
    ]);
  });

  it('skips git-ignored, vendored, dependency and test-fixture trees', async () => {
    repo = new TempRepo();
    repo.commit('files', {
      '.gitignore': 'generated/\n',
      'docs/adr/0001-keep.md': nygard(1, 'Keep'),
      'vendor/lib/docs/adr/0001-vendored.md': nygard(1, 'Vendored'),
      'third_party/x/decisions/0001-theirs.md': nygard(1, 'Theirs'),
      'test/fixtures/repo/docs/adr/0001-fixture.md': nygard(1, 'Fixture'),
    });
    repo.write('generated/adr/0001-generated.md', nygard(1, 'Generated'));
    repo.write('node_modules/pkg/adr/0001-dependency.md', nygard(1, 'Dependency'));
    const r = await discoverDecisions(repo.dir);
    assert.deepEqual(paths(r), ['docs/adr/0001-keep.md']);
  });

  it('says where it looked when it finds nothing, and how to point it elsewhere', async () => {
    const r = await discover({ 'src/index.ts': 'export {};\n', 'README.md': '# Hi\n' });
    assert.deepEqual(r.folders, []);
    assert.equal(r.summary.setting, 'proactiveContext.decisionFolders');
    assert.ok(r.summary.conventions.some((c) => /adr, adrs, decisions/.test(c)));
    assert.equal(r.summary.scanned, 2);
    assert.equal(r.summary.capped, undefined);
  });

  it('reports the cap when the listing or the shape sniffing stops early', async () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 4; i++) files[`notes/000${i}-n.md`] = nygard(i, `N${i}`);
    repo = new TempRepo();
    repo.commit('files', files);
    assert.deepEqual((await discoverDecisions(repo.dir, { maxPaths: 2 })).summary.capped, {
      reason: 'files',
      limit: 2,
    });
    const sniffCapped = await discoverDecisions(repo.dir, { maxSniffed: 3 });
    assert.deepEqual(sniffCapped.summary.capped, { reason: 'sniff', limit: 3 });
    assert.deepEqual(sniffCapped.folders, []);
    assert.deepEqual(folders(await discoverDecisions(repo.dir)), ['shape:notes:4']);
  });

  it('reads records in a new folder when the watcher reports only the folder', async () => {
    repo = new TempRepo();
    repo.commit('start', { 'src/index.ts': 'export {};\n' });
    const engine = await openEngine({ root: repo.dir, stateDir: repo.stateDir });
    try {
      await engine.indexer.refreshAll();
      assert.deepEqual(engine.decisions.list(), []);
      repo.write('packages/api/docs/adr/0001-use-knex.md', nygard(1, 'Use Knex'));
      const changed = new Promise<string[]>((resolve) => engine.indexer.onDidChangeData(resolve));
      // A folder made with files in it may arrive as one event for the folder.
      engine.indexer.fileChanged('packages');
      assert.deepEqual(await changed, ['packages']);
      assert.deepEqual(
        engine.decisions.list().map((d) => d.path),
        ['packages/api/docs/adr/0001-use-knex.md'],
      );
    } finally {
      engine.dispose();
    }
  });

  it('reads AsciiDoc records and records kept in a folder of their own', async () => {
    repo = new TempRepo();
    repo.commit('records', {
      'docs/adr/0001-use-queues/README.md': nygard(1, 'Use queues'),
      'docs/adr/0001-use-queues/diagram-notes.md': 'Notes for the diagram.\n',
      'docs/adr/0002-use-kafka.adoc':
        '= 2. Use Kafka\n\n== Status\n\nAccepted\n\n== Decision\n\nEvents go through Kafka.\n',
      'docs/adr/README.md': '# Records\n',
    });
    const source = new DecisionSource({ root: repo.dir });
    await source.refresh();
    const byPath = new Map(source.list().map((d) => [d.path, d]));
    assert.deepEqual(
      [...byPath.keys()].sort(),
      ['docs/adr/0001-use-queues/README.md', 'docs/adr/0002-use-kafka.adoc'],
      'notes beside a record in its folder are not records',
    );
    const own = byPath.get('docs/adr/0001-use-queues/README.md')!;
    assert.deepEqual([own.label, own.title, own.area], ['0001', 'Use queues', []]);
    const adoc = byPath.get('docs/adr/0002-use-kafka.adoc')!;
    assert.deepEqual(
      [adoc.number, adoc.title, adoc.status, adoc.summary],
      [2, 'Use Kafka', 'accepted', 'Events go through Kafka.'],
    );
  });

  it('names records numbered in series of their own by their series', async () => {
    repo = new TempRepo();
    const record = (label: string, title: string, body: string) =>
      `# ${label}: ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\nAs above.\n`;
    repo.commit('records', {
      'docs/decision_records/api/API-001-state-store.md': record(
        'API-001',
        'State store API',
        'The store lives in `pkg/state/store.go`.',
      ),
      'docs/decision_records/architecture/ARC-001-modularity.md': record(
        'ARC-001',
        'Modularity',
        'Packages stay small.',
      ),
      'pkg/state/store.go': 'package state\n',
    });
    const source = new DecisionSource({ root: repo.dir });
    await source.refresh();
    assert.deepEqual(
      source
        .list()
        .map((d) => `${d.label}|${d.number}|${d.title}`)
        .sort(),
      ['API-001|1|State store API', 'ARC-001|1|Modularity'],
    );
    const [item] = source.query({ file: 'pkg/state/store.go' });
    assert.deepEqual([item.title, item.location.adr], ['API-001: State store API', 'API-001']);
    assert.match(item.reason, /^API-001 names pkg\/state\/store\.go/);
  });

  it('takes files named as records outside decision folders, when they are shaped like one', async () => {
    const r = await discover({
      'docs/adr-007-use-queues.md': nygard(7, 'Use queues'),
      'docs/guide.md': '# Guide\n\nRun it.\n',
      'docs/install.md': '# Install\n\nnpm i.\n',
      'DECISIONS.md': '# Decisions\n\n## Use SQLite\n\n### Status\n\nAccepted\n\n### Context\n\nOne user.\n',
      'docs/decisions.rst': 'Decisions\n=========\n\n.. toctree::\n\n   decisions/0001\n',
    });
    assert.deepEqual(
      paths(r),
      ['DECISIONS.md', 'docs/adr-007-use-queues.md'],
      'an index named decisions is not a record',
    );
    assert.deepEqual(folders(r), ['name:.:1', 'name:docs:1']);
  });

  it('takes only record-shaped pages from tool folders: assistant commands about ADRs are not records', async () => {
    const command = (name: string) =>
      `---\nallowed-tools: Read, Write\ndescription: ${name} ADR metadata\n---\n\n# ${name} ADR Metadata\n\nYou read the front matter of each ADR in docs/adr.\n\n## Steps\n\n1. List the files.\n`;
    const r = await discover({
      'docs/adr/0001-use-a-message-pump.md': nygard(1, 'Use a message pump'),
      'docs/adr/0002-use-claim-check.md': nygard(2, 'Use claim check'),
      '.claude/commands/adr/README.md': '# ADR commands\n\nCommands that write records.\n',
      '.claude/commands/adr/read_adr_metadata.md': command('Read'),
      '.claude/commands/adr/write_adr_metadata.md': command('Write'),
      '.agent_instructions/adr_frontmatter.md':
        '# ADR front matter\n\nEvery record starts with front matter.\n\n## Status\n\nOne of proposed, accepted, superseded.\n',
      '.agent_instructions/code_style.md': '# Code style\n\nFour spaces.\n',
      '.github/adr/0001-run-ci-on-pull-requests.md': nygard(1, 'Run CI on pull requests'),
      '.adr/0001-hidden-but-named.md': nygard(1, 'Hidden but named'),
      // A skill copied into the assistant's folder keeps its own numbered proposals, with statuses.
      '.agents/skills/lang/proposals/ALP-001-named-blocks.md':
        '# ALP-1: Named blocks\n\n**Status**: accepted\n\n## Problem\n\nx\n\n## Decision\n\ny\n',
      '.agents/skills/lang/proposals/ALP-002-type-parameters.md':
        '# ALP-2: Type parameters\n\n**Status**: reject\n\n## Problem\n\nx\n\n## Decision\n\ny\n',
      '.agents/skills/lang/proposals/ALP-003-traits.md':
        '# ALP-3: Traits\n\n**Status**: accepted\n\n## Problem\n\nx\n\n## Decision\n\ny\n',
    });
    assert.deepEqual(paths(r), [
      '.adr/0001-hidden-but-named.md',
      '.github/adr/0001-run-ci-on-pull-requests.md',
      'docs/adr/0001-use-a-message-pump.md',
      'docs/adr/0002-use-claim-check.md',
    ]);
    assert.deepEqual(folders(r), ['name:.adr:1', 'name:.github/adr:1', 'name:docs/adr:2']);
  });

  it('reads a numbered record saved without an extension in a decision folder, but no other extensionless file', async () => {
    const r = await discover({
      'doc/adr/0001-record-decisions.md': nygard(1, 'Record decisions'),
      'doc/adr/0002-handle-concurrent-git-operations': nygard(2, 'Handle concurrent git operations'),
      'doc/adr/0003-notes': 'Some notes without any record heading.\n',
      'doc/adr/Makefile': 'all:\n\techo hi\n',
      'scripts/0001-migrate': '#!/bin/sh\n## Status\necho Status: accepted\n',
    });
    assert.deepEqual(paths(r), ['doc/adr/0001-record-decisions.md', 'doc/adr/0002-handle-concurrent-git-operations']);
    assert.deepEqual(folders(r), ['name:doc/adr:2']);
  });

  it('reads a retired or proposed sub-folder of a folder found by its records, with the status its name gives', async () => {
    const doc = (title: string, status: string) =>
      `# ${title}\n\n* Status: ${status}\n\n## Background\n\nWhy.\n\n## Decision\n\nThis.\n`;
    const r = await discover({
      'design/design-doc-composition.md': doc('Composition', 'Accepted'),
      'design/one-pager-packages.md': doc('Packages', 'Under Review'),
      'design/defunct/one-pager-resource-packs.md':
        '# Resource packs\n\n* Status: Defunct\n\n## Goals\n\nShip packs.\n',
      'design/defunct/0007-template-stacks.md': '# Template stacks\n\nAn early sketch.\n',
      'design/defunct/diagram-notes.md': '# Diagram notes\n\nBoxes and arrows.\n',
      'guides/setup.md': '# Setup\n\nRun it.\n',
      'guides/archive/old-setup.md': '# Old setup\n\n* Status: Defunct\n',
    });
    assert.deepEqual(paths(r), [
      'design/defunct/0007-template-stacks.md',
      'design/defunct/one-pager-resource-packs.md',
      'design/design-doc-composition.md',
      'design/one-pager-packages.md',
    ]);
    assert.deepEqual(
      folders(r),
      ['shape:design:4'],
      'the sub-folder counts with its parent; a folder of guides is not one of records',
    );
    const defunct = r.files.filter((f) => f.path.startsWith('design/defunct/'));
    assert.deepEqual(
      defunct.map((f) => [f.folder, f.folderStatus]),
      [
        ['design', 'deprecated'],
        ['design', 'deprecated'],
      ],
    );
    assert.equal(classifyStatus('Under Review'), 'proposed');
    assert.equal(classifyStatus('Defunct'), 'deprecated');
    assert.equal(classifyStatus('Withdrawn by its author'), 'rejected');
  });

  it('gives records in superseded/ and rejected/ sub-folders of a decision folder the status they lack', async () => {
    const unstated = (n: number, title: string, body: string) =>
      `# ${n}. ${title}\n\n## Context\n\nWhy ${title}.\n\n## Decision\n\n${body}\n`;
    repo = new TempRepo();
    repo.commit('records', {
      'docs/decisions/0003-use-postgres.md': nygard(3, 'Use Postgres'),
      'docs/decisions/superseded/0001-use-mongo.md': unstated(
        1,
        'Use Mongo',
        'Orders are kept by `src/store/orders.ts` in Mongo.',
      ),
      'docs/decisions/rejected/0002-use-graphql.md': unstated(
        2,
        'Use GraphQL',
        'The API is described in `src/api/schema.ts`.',
      ),
      'docs/decisions/rejected/0005-use-grpc.md': nygard(5, 'Use gRPC'),
      'docs/decisions/back-end/rejected/0004-use-soap.md': unstated(4, 'Use SOAP', 'Envelopes everywhere.'),
      'src/store/orders.ts': 'export const orders = [];\n',
      'src/api/schema.ts': 'export const schema = {};\n',
    });
    const source = new DecisionSource({ root: repo.dir, config: resolveConfig() });
    await source.refresh();
    const byLabel = new Map(source.list().map((d) => [d.label, d]));
    assert.deepEqual(
      [...byLabel].map(([label, d]) => `${label}:${d.status}:${d.area.join('/')}`).sort(),
      ['0001:superseded:', '0002:rejected:', '0003:accepted:', '0004:rejected:back-end', '0005:accepted:'],
      'the folder gives a status only to records that state none, and is no area',
    );
    assert.deepEqual(source.whereLooked().folders, [{ path: 'docs/decisions', reason: 'name', records: 5 }]);

    const orders = source.query({ file: 'src/store/orders.ts' });
    assert.deepEqual(
      orders.map((i) => `${i.type}:${i.title}`),
      ['warning:Governed by superseded ADR 0001: Use Mongo'],
    );
    const schema = source.query({ file: 'src/api/schema.ts' });
    assert.deepEqual(
      schema.map((i) => `${i.type}:${String(i.meta?.status)}`),
      ['decision:rejected'],
      'a rejected record is shown as one, not as a warning',
    );
  });

  it('reads superseded/ and rejected/ sub-folders of a folder found by its records, and skips pages there without a record’s shape', async () => {
    const r = await discover({
      'design/0001-use-queues.md': nygard(1, 'Use queues'),
      'design/0002-use-kafka.md': nygard(2, 'Use Kafka'),
      'design/superseded/0000-use-cron.md': '# Use cron\n\nJobs ran from cron.\n',
      'design/rejected/use-polling.md': '# Use polling\n\n## Decision\n\nPoll every minute.\n',
      'design/rejected/meeting-notes.md': '# Meeting notes\n\nWe talked.\n',
    });
    assert.deepEqual(folders(r), ['shape:design:4']);
    const place = new Map(r.files.map((f) => [f.path, `${f.folder}:${f.folderStatus ?? ''}:${f.area.join('/')}`]));
    assert.equal(place.get('design/superseded/0000-use-cron.md'), 'design:superseded:');
    assert.equal(place.get('design/rejected/use-polling.md'), 'design:rejected:');
    assert.ok(!place.has('design/rejected/meeting-notes.md'));
  });

  it('counts pages with only a front-matter title in a folder of records, but not beside a few records among other pages', async () => {
    const titled = (title: string, prose: string) => `---\ntitle: ${title}\n---\n\n${prose}\n`;
    const shaped = (title: string) =>
      `# ${title}\n\nStatus: accepted\n\n## Context\n\nWhy ${title}.\n\n## Decision\n\nWe ${title}.\n`;
    const r = await discover({
      'handbook/choices/keep-one-database.md': shaped('Keep one database'),
      'handbook/choices/deploy-on-fridays.md': shaped('Deploy on Fridays'),
      'handbook/choices/pair-on-incidents.md': shaped('Pair on incidents'),
      'handbook/choices/ship-small-changes.md': titled(
        'Ship small changes',
        'We merge changes of a day or less, behind a flag when they are not done.',
      ),
      'handbook/choices/review-in-a-day.md': titled(
        'Review within a day',
        'Every pull request gets a first review within one working day.',
      ),
      'handbook/choices/write-it-down.md': titled(
        'Write it down',
        'What the team agrees on is written here, in plain words, the same week.',
      ),
      'guide/backups.md': shaped('Back up nightly'),
      'guide/restores.md': shaped('Restore from the newest backup'),
      'guide/glossary-of-terms.md': titled('Terms', 'A ledger is the list of every posting.'),
      'guide/install.md': '# Install\n\nRun the installer.\n',
      'guide/configure.md': '# Configure\n\nEdit the file.\n',
      'guide/upgrade.md': '# Upgrade\n\nRun it again.\n',
      'site/pages/about.md': titled('About', 'Who we are.'),
      'site/pages/pricing.md': titled('Pricing', 'What it costs.'),
      'site/pages/contact.md': titled('Contact', 'How to reach us.'),
    });
    assert.deepEqual(folders(r), ['shape:guide:2', 'shape:handbook/choices:6']);
    assert.ok(
      paths(r).includes('handbook/choices/write-it-down.md'),
      'at least half the folder is records: a titled page is one too',
    );
    assert.ok(
      !paths(r).includes('guide/glossary-of-terms.md'),
      'two records among six pages: a titled page is not one',
    );
    assert.ok(
      !paths(r).some((p) => p.startsWith('site/')),
      'a site whose pages all have front-matter titles holds no records',
    );
  });

  it('does not take dated reports and roadmaps with a status for a folder of records', async () => {
    const report = (title: string, status: string) =>
      `---\ntype: Report\nstatus: ${status}\n---\n\n# ${title}\n\nWhat we found.\n`;
    const r = await discover({
      'docs/90_Reports/2026-01-31_Smoke_Migration.md': report('Smoke migration', 'DRAFT'),
      'docs/90_Reports/2026-02-01_Backend_Hardening.md': report('Backend hardening', 'ACTIVE'),
      'docs/90_Reports/2026-02-01_Frontend_Cleanup.md':
        '---\ntitle: Frontend Cleanup & Architecture Status Report\nstatus: Final\n---\n\nDone.\n',
      'docs/90_Reports/2026-01-15_Q1.md': '# Q1 Roadmap\n\nStatus: draft\n\nShip it.\n',
      'docs/records/0001-use-koin.md': nygard(1, 'Use Koin'),
      'docs/records/0002-use-ktor.md': nygard(2, 'Use Ktor'),
      'docs/records/2026-03-01_report.md': report('Quarterly report', 'Accepted'),
    });
    assert.deepEqual(folders(r), ['shape:docs/records:2']);
    assert.deepEqual(paths(r), ['docs/records/0001-use-koin.md', 'docs/records/0002-use-ktor.md']);
  });
});
