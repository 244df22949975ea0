import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fileNumberText,
  fileSeries,
  fileSlug,
  logEntries,
  parseAdr,
} from '../../../src/core/sources/decisions/adrParser';
import { parseFrontMatter } from '../../../src/core/sources/docs/markdown';
import { adrShapeOf } from '../../../src/core/sources/decisions/adrShape';
import { FIXTURES } from './sourceFixtures';

const read = (p: string) => readFileSync(join(FIXTURES, p), 'utf8');
const NYGARD = 'nygard-repo/doc/architecture/decisions';

describe('parseAdr', () => {
  it('keeps inline code in a title, ticks included, and still drops the other marks', () => {
    const adr = parseAdr(
      '0007-conditionals-in-jsx.md',
      '# 7. Use of **conditionals** in JSX (deprecation of `<Show />` and `&&`)\n\n## Status\n\nAccepted\n',
    );
    assert.equal(adr.title, 'Use of conditionals in JSX (deprecation of `<Show />` and `&&`)');
    const front = parseAdr(
      '0008-x.md',
      '---\ntitle: "Prefer `fetch` over <b>axios</b>"\n---\n\n## Status\n\nAccepted\n',
    );
    assert.equal(front.title, 'Prefer `fetch` over axios');
  });

  it('reads a Nygard record that was superseded, with its successor link', () => {
    const adr = parseAdr(
      '0002-write-ledger-entries-directly.md',
      read(`${NYGARD}/0002-write-ledger-entries-directly.md`),
    );
    assert.equal(adr.number, 2);
    assert.equal(adr.title, 'Write ledger entries directly');
    assert.equal(adr.status, 'superseded');
    assert.deepEqual(adr.supersededBy && { number: adr.supersededBy.number, target: adr.supersededBy.target }, {
      number: 4,
      target: '0004-use-events-for-ledger-updates.md',
    });
    assert.equal(adr.date, Date.UTC(2024, 1, 10));
    assert.equal(adr.style, 'nygard');
    assert.equal(adr.titleStyle, 'numbered');
    assert.ok(adr.sections['Decision'].includes('postEntry'));
    assert.match(adr.summary, /^Every payment path calls postEntry synchronously/);
  });

  it('reads the successor side of a Nygard supersession', () => {
    const adr = parseAdr(
      '0004-use-events-for-ledger-updates.md',
      read(`${NYGARD}/0004-use-events-for-ledger-updates.md`),
    );
    assert.equal(adr.status, 'accepted');
    assert.deepEqual(
      adr.supersedes.map((s) => s.number),
      [2],
    );
    assert.equal(adr.supersededBy, undefined);
  });

  it('reads MADR with YAML front matter, including a superseded status and deciders', () => {
    const adr = parseAdr('0005-use-structured-json-logs.md', read('adr/madr-frontmatter.md'));
    assert.equal(adr.number, 5);
    assert.equal(adr.title, 'Use structured JSON logs');
    assert.equal(adr.status, 'superseded');
    assert.equal(adr.supersededBy?.number, 7);
    assert.equal(adr.supersededBy?.target, '0007-use-opentelemetry.md');
    assert.deepEqual(adr.deciders, ['Alice Martin', 'Bob Chen']);
    assert.equal(adr.date, Date.UTC(2023, 10, 14));
    assert.equal(adr.style, 'madr-frontmatter');
    assert.ok('Context and Problem Statement' in adr.sections);
    assert.match(adr.summary, /JSON lines through pino/);
  });

  it('reads MADR 2 bullet fields without front matter, and the technical story', () => {
    const adr = parseAdr('0012-use-keycloak.md', read('adr/madr-bullets.md'));
    assert.equal(adr.number, 12);
    assert.equal(adr.status, 'accepted');
    assert.deepEqual(adr.deciders, ['Dana Ortiz', 'Eli Novak']);
    assert.equal(adr.date, Date.UTC(2022, 4, 3));
    assert.equal(adr.style, 'madr-bullets');
    assert.equal(adr.bullet, '*');
    assert.match(adr.technicalStory ?? '', /AUTH-112/);
  });

  it('reads a log4brains record with a dash status line that names its successor by file', () => {
    const adr = parseAdr('20220930-move-search-to-opensearch.md', read('adr/log4brains.md'));
    assert.equal(adr.status, 'superseded');
    assert.equal(adr.supersededBy?.target, '20230412-use-managed-search.md');
    assert.equal(adr.date, Date.UTC(2022, 8, 30));
    assert.equal(adr.bullet, '-');
    assert.equal(adr.title, 'Move the search index to OpenSearch');
  });

  it('gives a record without any status the status unknown instead of failing', () => {
    const adr = parseAdr('cache-images.md', read('adr/no-status.md'));
    assert.equal(adr.status, 'unknown');
    assert.equal(adr.number, undefined);
    assert.equal(adr.title, 'Cache product images at the edge');
  });

  it('takes the number from an `ADR-7:` title when the file name has none', () => {
    const adr = parseAdr(
      'tracing.md',
      '# ADR-7: Use OpenTelemetry\n\nStatus: proposed\n\n## Context\n\nWe trace nothing.\n',
    );
    assert.equal(adr.number, 7);
    assert.equal(adr.title, 'Use OpenTelemetry');
    assert.equal(adr.status, 'proposed');
    assert.equal(adr.titleStyle, 'adr-prefix');
  });

  it('is not misled by the title of the record it supersedes', () => {
    const adr = parseAdr(
      '0009-new-endpoints.md',
      '# 9. New endpoints\n\n## Status\n\nAccepted\n\nSupersedes [3. Deprecated endpoints](0003-deprecated-endpoints.md)\n',
    );
    assert.equal(adr.status, 'accepted');
    assert.deepEqual(
      adr.supersedes.map((r) => r.number),
      [3],
    );
  });

  it('survives empty and garbage input', () => {
    assert.equal(parseAdr('x.md', '').status, 'unknown');
    assert.equal(parseAdr('x.md', '---\nstatus: [\n---\n\u0000\u0001').title.length >= 0, true);
  });

  it('does not read a status from template guidance left in an HTML comment', () => {
    const adr = parseAdr(
      '0005-aliases.md',
      '# 5. SBOM document aliases\n\n## Status\n<!--\nA decision may be "proposed" or "accepted"; later it may be marked "deprecated" or "superseded".\n-->\nAccepted\n\n## Context\n\nShort names.\n',
    );
    assert.equal(adr.status, 'accepted');
    assert.equal(adr.sectionList.find((s) => s.heading === 'Context')?.line, 9, 'line numbers stay those of the file');
  });

  it('strips `ADR:` and `ADR 03)` title prefixes', () => {
    assert.equal(
      parseAdr('preferred-export.md', '---\ntitle: "ADR: Preferred export"\n---\n\n## Background\n\nNamed.\n').title,
      'Preferred export',
    );
    const codex = parseAdr(
      '03-adr-string-types.md',
      '# ADR 03) String types in TypeScript\n\nDate: 2021-10-14\n\n## Status\n\nAccepted\n',
    );
    assert.deepEqual(
      [codex.number, codex.title, codex.status, codex.date],
      [3, 'String types in TypeScript', 'accepted', Date.UTC(2021, 9, 14)],
    );
  });

  it('reads a misspelt "superceded by" in bold bullets, and the newest entry of a front-matter status history', () => {
    const bold = parseAdr(
      '2021-04-functions-api.md',
      '# Host Content API on Cloud Functions\n\n* **Status:** superceded by [2021-06 API on Cloud Run](2021-06-run-api.md)\n* **Last Updated:** 2021-04\n\n## Context & Problem Statement\n\nWhere?\n',
    );
    assert.equal(bold.status, 'superseded');
    assert.equal(bold.supersededBy?.target, '2021-06-run-api.md');
    assert.equal(bold.number, undefined, 'a month-named record is not numbered by its year');
    const history = parseAdr(
      '02-architecture-design-patterns.md',
      '---\ntitle: Architecture and Design Patterns\nstatusHistory:\n- status: decided\n  date: 2023-07-24\n- status: superseded\n  date: 2024-02-16\n---\n\n# Architecture and Design Patterns\n\nHexagonal.\n',
    );
    assert.equal(history.status, 'superseded');
    assert.equal(history.number, 2);
  });

  it('takes a title out of template brackets, and the file name over a placeholder left in them', () => {
    assert.equal(
      parseAdr('ADR-003-gestion-des-dates.md', '# [Gestion des Dates]\n\n* Statut : mergé\n').title,
      'Gestion des Dates',
    );
    assert.equal(
      parseAdr(
        'ADR-002-keycloak-creation-jeune-milo.md',
        '# [titre du problème résolu et de sa solution]\n\n- Statut: proposé\n',
      ).title,
      'Keycloak creation jeune milo',
    );
    assert.equal(parseAdr('0004-use-links.md', '# Use [links](x.md) in titles\n').title.startsWith('Use'), true);
  });

  it('reads the status of records kept in French, Spanish and German', () => {
    const fr = parseAdr(
      'ADR-001-service-notifications.md',
      '# Service de notifications\n\n- Statut: proposé\n\n## Contexte\n\nPourquoi.\n',
    );
    assert.equal(fr.status, 'proposed');
    assert.equal(
      parseAdr('0002-x.md', '# 2. Usar colas\n\n## Estado\n\nAceptado\n\n## Contexto\n\nPor qué.\n').status,
      'accepted',
    );
    assert.equal(
      parseAdr('0003-x.md', '---\ntitle: Alte Queue\nstatus: ersetzt durch 0004\n---\n\nText.\n').status,
      'superseded',
    );
    assert.equal(
      parseAdr('0004-x.md', '# 4. Ancienne file\n\n* **Statut :** remplacé par [5](0005-x.md)\n').status,
      'superseded',
    );
  });

  it('reads statuses kept in a metadata table, in a code block, and written as Active or Implemented', () => {
    const pair = parseAdr(
      '0004-x.md',
      '# 4. Queues\n\n| Status | Accepted |\n|---|---|\n| Date | 2021-02-03 |\n\n## Context\n\nWhy.\n',
    );
    assert.deepEqual([pair.status, pair.date], ['accepted', Date.UTC(2021, 1, 3)]);
    assert.equal(
      parseAdr('0005-x.md', '# 5. X\n\n| Field | Value |\n|---|---|\n| **Status** | Superseded by ADR-9 |\n').status,
      'superseded',
    );
    assert.equal(
      parseAdr('0006-x.md', '# 6. X\n\n| Status | Date |\n| --- | --- |\n| Proposed | 2021-01-01 |\n').status,
      'proposed',
    );
    // A table of other records' statuses is not this record's status.
    assert.equal(
      parseAdr('0007-x.md', '# 7. X\n\n| ADR | Status |\n|---|---|\n| 1 | Rejected |\n| 2 | Accepted |\n').status,
      'unknown',
    );
    assert.equal(
      parseAdr(
        'adr-001-x.md',
        '# ADR 001 - Use records\n\n```\nAuthor: @a\nStatus: Active\n```\n\n## Context\n\nWhy.\n',
      ).status,
      'accepted',
    );
    assert.equal(parseAdr('0008-x.md', '# 8. X\n\n## Status\n\nImplemented\n').status, 'accepted');
    assert.equal(parseAdr('0009-x.md', '# 9. X\n\nStatus: Inactive\n').status, 'deprecated', 'inactive is not active');
    assert.equal(parseAdr('0010-x.md', '# 10. X\n\nStatus: not accepted\n').status, 'rejected');
    assert.equal(
      parseAdr('0011-x.md', '# 11. X\n\n## Status\n\nIn progress\n').status,
      'unknown',
      'a decision being carried out is not a proposal',
    );
    assert.equal(adrShapeOf('0004-x.md', '# 4. Queues\n\n| **Status:** | Accepted |\n').content, 1);
    assert.equal(adrShapeOf('notes.md', '# Notes\n\n| Status | Beta |\n').content, 0);
  });

  it('drops emoji before a title and its ADR prefix', () => {
    const adr = parseAdr(
      'adr-005-thin-cli-architecture.md',
      '# 📄 ADR-005: Thin CLI Architecture\n\n## Status\n\n✅ Accepted\n',
    );
    assert.deepEqual(
      [adr.number, adr.title, adr.status, adr.titleStyle],
      [5, 'Thin CLI Architecture', 'accepted', 'adr-prefix'],
    );
  });

  it('reads a note at the top that a later record replaced this one as its status', () => {
    const quoted = parseAdr(
      'adr-003-retention.md',
      '# Decision Record: Retention\n\n> **Note**\n> The strategy was revisited in [ADR-7] which supersedes this decision.\n\n[ADR-7]: adr-007-x.md\n\n## Introduction\n\nText.\n',
    );
    assert.deepEqual(
      [quoted.status, quoted.statusText, quoted.supersededBy?.number],
      ['superseded', 'Superseded by ADR-7', 7],
    );
    const bold = parseAdr('0003-x.md', '# 3. X\n\n**Superseded by [4. Y](0004-y.md)**\n\n## Context\n\nx\n');
    assert.deepEqual([bold.status, bold.supersededBy?.target], ['superseded', '0004-y.md']);
    assert.equal(
      parseAdr('0003-x.md', '# 3. X\n\n## Context\n\nOur queue was superseded by Kafka last year.\n').status,
      'unknown',
      'prose about something else',
    );
    assert.equal(
      parseAdr('0003-x.md', '# 3. X\n\n## Status\n\nAccepted\n\n## Context\n\n> Superseded by ADR-9\n').status,
      'accepted',
      'a note inside the sections is prose',
    );
    // The status line was left as it was when a note at the top recorded the replacement.
    const noted = parseAdr(
      '0032-x.md',
      '# ADR 0032: X\n\n**Status:** Accepted  \n**Date:** 2026-06-27\n\n> **Superseded by [ADR-0037](0037-y.md).** The decision below was reversed.\n\n## Context\n\nx\n',
    );
    assert.deepEqual(
      [noted.status, noted.statusText, noted.supersededBy?.target],
      ['superseded', 'Superseded by [ADR-0037](0037-y.md) (Accepted)', '0037-y.md'],
    );
  });

  it('drops what the file is (`Decision Record:`) from before its title', () => {
    assert.equal(
      parseAdr('adr-004-message-concept.md', '# Decision Record: Message Concept\n\n## Introduction\n\nText.\n').title,
      'Message Concept',
    );
    assert.equal(
      parseAdr('adr-010-x.md', '# Architecture decision record - Reinstate emails\n').title,
      'Reinstate emails',
    );
    assert.equal(
      parseAdr('adr-011-x.md', '# Decision records we keep\n').title,
      'Decision records we keep',
      'only a prefix before a separator',
    );
    assert.equal(parseAdr('adr-012-x.md', '# Decision Record:\n').title, 'Decision Record:', 'never an empty title');
  });

  it('reads a reStructuredText record: numbered title, sections, status section', () => {
    const adr = parseAdr(
      '0006-app-label-prefix.rst',
      '6. App Label Prefix\n===================\n\nStatus\n------\n\nAccepted\n\nDecision\n--------\n\nPrefix every ``label`` with ``oel_``.\n',
    );
    assert.deepEqual([adr.number, adr.title, adr.status], [6, 'App Label Prefix', 'accepted']);
    assert.match(adr.summary, /Prefix every/);
  });

  it('reads a reStructuredText title as it reads: inline literals as code, escaped characters as themselves', () => {
    const literal = parseAdr(
      '0023-spend-limits-constraint.rst',
      '0023 Constraint on ``spend_limit`` based on ``total_deposits``\n********************************************\n\nStatus\n======\n\nAccepted\n',
    );
    assert.deepEqual([literal.number, literal.title], [23, 'Constraint on `spend_limit` based on `total_deposits`']);
    const escaped = parseAdr(
      '0018-access-policy-grouping.rst',
      '\\0018 Access Policy Grouping\n###########################\n\nStatus\n======\n\nAccepted\n',
    );
    assert.deepEqual([escaped.number, escaped.title], [18, 'Access Policy Grouping']);
  });

  it('reads a title kept in a YAML block scalar, as doc sites write front matter', () => {
    const adr = parseAdr(
      '2023-10-16_028_offline_adr.md',
      '---\nslug: 28\ntitle: |\n  28. Offline mode\nauthors: [ch1bo]\ntags: [Accepted]\n---\n\n## Context\n\nA head can run without a chain.\n\n## Decision\n\nAdd an offline mode.\n',
    );
    assert.deepEqual([adr.title, adr.number], ['Offline mode', 28]);
    const folded = parseAdr(
      '0003-x.md',
      '---\ntitle: >-\n  Use the event log\n  as the store\nstatus: accepted\n---\n# Heading\n',
    );
    assert.deepEqual([folded.title, folded.status], ['Use the event log as the store', 'accepted']);
  });

  it('reads a title written on the line under its key, and never takes a nested mapping for one', () => {
    const plain = parseAdr(
      '2021-06-07_003-asynchronous-duplex-api.md',
      '---\nslug: 3\ntitle: \n  3. Asynchronous Duplex\n  Client API\nauthors: []\ntags: [Accepted]\n---\n\n## Context\n\nClients talk both ways.\n',
    );
    assert.deepEqual([plain.title, plain.number, plain.status], ['Asynchronous Duplex Client API', 3, 'accepted']);
    const nested = parseAdr('0004-x.md', '---\ntitle:\nsidebar:\n  label: ADR-0004\n  order: 4\n---\n# Use a queue\n');
    assert.equal(nested.title, 'Use a queue', 'an empty title falls back to the heading');
    assert.deepEqual(parseFrontMatter('---\ntags:\n  - a\n  - b\n---\n')?.data.tags, ['a', 'b']);
  });

  it('reads a status from front-matter tags, a badge or a lone word under the title, and a label in brackets', () => {
    const rst = parseAdr(
      '001-path-sequence-format.rst',
      '.. _adr-001:\n\n[ADR-001] Path Sequence Format\n==============================\n\n:bdg-success:`Accepted`\n\nContext\n-------\n\nFormats vary.\n',
    );
    assert.deepEqual([rst.title, rst.number, rst.status], ['Path Sequence Format', 1, 'accepted']);
    assert.equal(
      parseAdr('0002-x.md', '---\ntitle: Keep logs\ntags: [logging, Superseded]\n---\n## Context\n').status,
      'superseded',
    );
    assert.equal(
      parseAdr('0005-x.md', '# Use Kafka\n\n![Proposed](https://img.shields.io/badge/proposed-blue)\n\n## Context\n')
        .status,
      'proposed',
    );
    assert.equal(parseAdr('0006-x.md', '# Use Kafka\n\n**Rejected**\n').status, 'rejected');
    assert.equal(
      parseAdr('0007-x.md', '# Use Kafka\n\nAccepted by the team was the idea that we need a bus.\n').status,
      'unknown',
      'a sentence is not a status',
    );
    assert.equal(
      parseAdr('0008-x.md', '---\ntags: [Accepted]\n---\n# X\n\n## Status\n\nSuperseded by 0009\n').status,
      'superseded',
      'a stated status comes before a tag',
    );
  });

  it('reads section headings led by an emoji or closed by a colon', () => {
    const text =
      '# ADR 0002: Adopt Hexagonal Architecture\n\n## 📌 Status\n\nAccepted\n\n## 🧭 Context\n\nServices grew.\n\n## ✅ Decision\n\nPorts and adapters.\n\n## 🎯 Consequences\n\nMore files.\n';
    const adr = parseAdr('adr_002-adopt-hexagonal-architecture.md', text);
    assert.deepEqual(
      [adr.title, adr.status, adr.summary],
      ['Adopt Hexagonal Architecture', 'accepted', 'Ports and adapters.'],
    );
    assert.equal(adrShapeOf('adr_002-adopt-hexagonal-architecture.md', text).content, 4);
    assert.equal(parseAdr('0003-x.md', '# Kafka\n\n## Status:\n\nOdrzucony, rejected\n').status, 'rejected');
  });

  it('numbers a record after its date prefix or a series prefix, and not by a date alone', () => {
    assert.equal(fileNumberText('2021-06-05_001-use-haskell.md'), '001');
    assert.equal(fileNumberText('2025-02-12-032-network-properties.md'), '032');
    assert.equal(fileNumberText('API-008-multi-state-store-api-design.md'), '008');
    assert.equal(fileNumberText('adr-12-cache.md'), '12');
    assert.equal(fileNumberText('0003-use-x.md'), '0003');
    assert.equal(fileNumberText('2021-04-run-website.md'), undefined);
    assert.equal(fileNumberText('2021-06-05-run-website.md'), undefined);
    assert.equal(fileNumberText('use-x.md'), undefined);
    assert.equal(
      parseAdr('ARC-003-grpc-convention.md', '# ARC-003: gRPC and Protobuf message coding convention\n').number,
      3,
    );
  });

  it('reads each record of a decision log kept in one file', () => {
    const log = [
      '# Platform decisions',
      '',
      '<!--',
      '## ID. TITLE',
      'status: Accepted',
      '### Context',
      '-->',
      '',
      '### 3. Cache reads in Redis',
      '',
      '**Status:** Draft',
      '',
      '#### Context',
      '',
      'Reads are slow.',
      '',
      '#### Decision',
      '',
      'We cache reads in Redis for a minute.',
      '',
      '##### 1. Keys',
      '',
      'Keys are per tenant.',
      '',
      '## ADR-2: Keep one database',
      '',
      '### Status',
      '',
      'Superseded by ADR-3',
      '',
      '### Context',
      '',
      'One database is simpler.',
      '',
      '### Decision',
      '',
      'Everything goes to Postgres.',
      '',
      '## 4.1 Open questions',
      '',
      'Status: none yet',
      '',
    ].join('\n');
    const entries = logEntries(parseAdr('DECISIONS.md', log).sectionList);
    assert.deepEqual(
      entries.map((e) => [e.label, e.title, e.status, e.line, e.summary]),
      [
        ['3', 'Cache reads in Redis', 'proposed', 9, 'We cache reads in Redis for a minute.'],
        ['2', 'Keep one database', 'superseded', 25, 'Everything goes to Postgres.'],
      ],
    );
    // The numbered step inside the first entry belongs to it.
    assert.deepEqual(
      [entries[0].endLine, entries[0].sections.map((s) => s.heading)],
      [24, ['3. Cache reads in Redis', 'Context', 'Decision', '1. Keys']],
    );
    // Unnumbered headings are records only with Context and Decision right under them; a number may follow on the next line.
    const unnumbered =
      '# Decisions\n\n## 🔧 Adopt mise\n*DEC 13 — 2025-11-24*\n\n### Context\n\nRuntimes.\n\n### Decision\n\nUse mise.\n\n## Use Jekyll\n\n### Context\n\nDocs.\n\n### Decision\n\nJekyll.\n';
    assert.deepEqual(
      logEntries(parseAdr('DECISIONS.md', unnumbered).sectionList).map((e) => [e.label, e.title]),
      [
        ['13', 'Adopt mise'],
        [undefined, 'Use Jekyll'],
      ],
    );
    // A guide with numbered steps and one record alone are not logs.
    assert.deepEqual(
      logEntries(
        parseAdr('guide.md', '# Guide\n\n## 1. Install\n\nRun it.\n\n## 2. Configure\n\nSet it.\n').sectionList,
      ),
      [],
    );
    assert.deepEqual(
      logEntries(parseAdr('0001-x.md', '# 1. Use X\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n').sectionList),
      [],
    );
  });

  it('takes a series label off the title and the file name, and keeps titles that only look like one', () => {
    assert.deepEqual(
      [
        fileSeries('ARC-003-grpc-convention.md'),
        fileSeries('rfc_12-x.md'),
        fileSeries('adr-3-x.md'),
        fileSeries('0003-x.md'),
      ],
      ['ARC', 'RFC', undefined, undefined],
    );
    assert.equal(
      parseAdr('ARC-003-grpc-convention.md', '# ARC-003: gRPC and Protobuf message coding convention\n').title,
      'gRPC and Protobuf message coding convention',
    );
    assert.equal(parseAdr('API-007-tracing.md', '# API-007 - Tracing Endpoint\n').title, 'Tracing Endpoint');
    assert.equal(
      parseAdr('arch-004-openfeign.md', '## ADR Arch-004 — Use Spring Cloud OpenFeign\n').title,
      'Use Spring Cloud OpenFeign',
    );
    const layered = parseAdr('pattern-001-layered.md', '# ADR pattern-001 Preferred package layout\n');
    assert.deepEqual(
      [layered.title, layered.number, fileSeries('pattern-001-layered.md')],
      ['Preferred package layout', 1, 'PATTERN'],
    );
    // Another series than the file's, or a plain number in a title, is part of the title.
    assert.equal(parseAdr('API-007-oauth.md', '# OAuth 2: the token flow\n').title, 'OAuth 2: the token flow');
    assert.equal(parseAdr('0004-oauth.md', '# OAuth 2: the token flow\n').title, 'OAuth 2: the token flow');
    assert.deepEqual(
      [
        'ARC-003-grpc-protobuf.md',
        '2021-06-05_001-use-haskell.md',
        'adr-12-cache.md',
        '0003-use-x.rst',
        'use-x.md',
      ].map(fileSlug),
      ['grpc-protobuf', 'use-haskell', 'cache', 'use-x', 'use-x'],
    );
  });

  it('reads Proposal, Placeholder and Work in Progress as proposed', () => {
    for (const status of ['Proposal', 'Placeholder', 'Work in Progress by Engineering', 'WIP']) {
      assert.equal(parseAdr('0001-x.md', `# 1. X\n\n## Status\n\n${status}\n`).status, 'proposed', status);
    }
    assert.equal(
      parseAdr('0001-x.md', '# 1. X\n\n## Status\n\nSwipe to accept\n').status,
      'accepted',
      'wip inside a word is not a status',
    );
  });

  it('summarizes the text after a lead-in that stands alone', () => {
    const adr = parseAdr(
      '005-errors.md',
      '# 5. Errors\n\n## Decision\n\n_Therefore_\n\nWe wrap every error with anyhow and add context.\n',
    );
    assert.equal(adr.summary, 'Therefore We wrap every error with anyhow and add context.');
  });

  it('tells reports, roadmaps and minutes from records by their type or title', () => {
    assert.equal(
      adrShapeOf('2026-02-01_Sync_Fix_Report.md', '---\ntype: Report\nstatus: DRAFT\n---\n# Sync fix\n').otherKind,
      true,
    );
    assert.equal(
      adrShapeOf(
        '2026-02-01_Frontend_Cleanup.md',
        '---\ntitle: Frontend Cleanup & Architecture Status Report\nstatus: Final\n---\n',
      ).otherKind,
      true,
    );
    assert.equal(adrShapeOf('2026-01-15_Q1.md', '# Q1 Roadmap\n\nStatus: draft\n').otherKind, true);
    assert.equal(
      adrShapeOf(
        '2026-02-27-add-crate-plan.md',
        '# `scripts/add-crate` Implementation Plan\n\n**Goal:** add crates.\n\n## Decisions\n\nBash.\n',
      ).otherKind,
      true,
    );
    assert.equal(
      adrShapeOf('0006-x.md', '# 6. Adopt the migration plan\n\n## Status\n\nAccepted\n\n## Decision\n\nPhases.\n')
        .otherKind,
      false,
    );
    assert.equal(
      adrShapeOf('0004-reporting.md', '---\ntitle: Use a reporting service\ntype: adr\nstatus: accepted\n---\n')
        .otherKind,
      false,
    );
    assert.equal(
      adrShapeOf(
        '0005-x.md',
        '# 5. Generate the coverage report\n\n## Status\n\nAccepted\n\n## Context\n\nx\n\n## Decision\n\ny\n',
      ).otherKind,
      false,
      'a record with its sections stays a record, whatever its title ends with',
    );
  });
});
