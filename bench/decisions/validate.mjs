#!/usr/bin/env node
// Validate the hand-labelled decision-record cases in labels/ and holdout/.
//
//   node bench/decisions/validate.mjs --repos DIR [--set labels|holdout]
//
// DIR holds one checkout per repository, named <owner>__<name> (see checkout.mjs).
// Every path is checked against the recorded commit (not the work tree), so a
// checkout on another commit still validates as long as it contains that commit.
// Prints a summary table; exits 1 on any problem.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SETS = ['labels', 'holdout'];

function parseArgs(argv) {
  const args = { repos: path.join(here, 'repos'), sets: SETS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--repos') args.repos = path.resolve(argv[++i]);
    else if (a === '--set') args.sets = [argv[++i]];
    else if (a === '--help' || a === '-h') {
      console.log('usage: node validate.mjs --repos DIR [--set labels|holdout]');
      process.exit(0);
    } else {
      console.error(`unknown argument: ${a}`);
      process.exit(2);
    }
  }
  return args;
}

function git(dir, args, input) {
  const r = spawnSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    input,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { ok: r.status === 0, out: r.stdout ?? '', err: r.stderr ?? '' };
}

const isStr = (v) => typeof v === 'string' && v.trim().length > 0;
const isStrArray = (v) => Array.isArray(v) && v.every(isStr);

function validateFile(set, file, reposDir) {
  const problems = [];
  const p = (msg) => problems.push(`${set}/${file}: ${msg}`);
  let data;
  try {
    data = JSON.parse(readFileSync(path.join(here, set, file), 'utf8'));
  } catch (e) {
    p(`not valid JSON: ${e.message}`);
    return { problems };
  }

  const allowed = new Set(['repo', 'commit', 'language', 'layout', 'records', 'cases']);
  for (const k of Object.keys(data)) if (!allowed.has(k)) p(`unknown field "${k}"`);
  if (!isStr(data.repo) || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(data.repo)) p('repo must be "owner/name"');
  else if (file !== `${data.repo.replace('/', '__')}.json`)
    p(`file name should be ${data.repo.replace('/', '__')}.json`);
  if (!isStr(data.commit) || !/^[0-9a-f]{40}$/.test(data.commit)) p('commit must be 40 lowercase hex');
  if (!isStr(data.language)) p('language missing');
  if (!isStr(data.layout)) p('layout missing');
  if (!isStrArray(data.records) || data.records.length === 0) p('records must be a non-empty array of paths');
  if (!Array.isArray(data.cases) || data.cases.length === 0) p('cases must be a non-empty array');
  if (problems.length) return { problems };

  const records = new Set(data.records);
  if (records.size !== data.records.length) p('records has duplicates');

  const caseKeys = new Set();
  const caseFields = new Set(['file', 'line', 'symbol', 'expected', 'acceptable', 'why']);
  const expectedAll = new Set();
  data.cases.forEach((c, i) => {
    const at = `case ${i} (${c?.file})`;
    for (const k of Object.keys(c)) if (!caseFields.has(k)) p(`${at}: unknown field "${k}"`);
    if (!isStr(c.file)) p(`${at}: file missing`);
    if (c.line !== undefined && !(Number.isInteger(c.line) && c.line > 0)) p(`${at}: line must be a positive integer`);
    if (c.symbol !== undefined && !isStr(c.symbol)) p(`${at}: symbol must be a non-empty string`);
    if (c.symbol !== undefined && c.line === undefined) p(`${at}: symbol given without line`);
    if (!isStrArray(c.expected) || c.expected.length < 1 || c.expected.length > 3)
      p(`${at}: expected must hold 1-3 records`);
    if (!isStrArray(c.acceptable ?? [])) p(`${at}: acceptable must be an array of paths`);
    if (!isStr(c.why)) p(`${at}: why missing`);
    const exp = c.expected ?? [];
    const acc = c.acceptable ?? [];
    for (const r of [...exp, ...acc]) if (!records.has(r)) p(`${at}: ${r} is not in records`);
    for (const r of exp) {
      expectedAll.add(r);
      if (acc.includes(r)) p(`${at}: ${r} is both expected and acceptable`);
    }
    if (new Set(exp).size !== exp.length || new Set(acc).size !== acc.length) p(`${at}: duplicate record in a list`);
    if (records.has(c.file)) p(`${at}: the file is itself a decision record`);
    const key = `${c.file}#${c.line ?? ''}#${c.symbol ?? ''}`;
    if (caseKeys.has(key)) p(`${at}: duplicate case`);
    caseKeys.add(key);
  });

  // Paths must exist at the recorded commit in the checkout.
  const checkout = path.join(reposDir, data.repo.replace('/', '__'));
  if (!existsSync(checkout)) {
    p(`no checkout at ${checkout} (run checkout.mjs)`);
  } else if (!git(checkout, ['cat-file', '-e', `${data.commit}^{commit}`]).ok) {
    p(`commit ${data.commit} is not in ${checkout}`);
  } else {
    const paths = [...new Set([...data.records, ...data.cases.map((c) => c.file)])];
    const batch = git(
      checkout,
      ['cat-file', '--batch-check=%(objecttype)'],
      paths.map((x) => `${data.commit}:${x}`).join('\n') + '\n',
    );
    const types = batch.out.split('\n');
    paths.forEach((x, i) => {
      if (types[i] !== 'blob') p(`${x} does not exist as a file at ${data.commit.slice(0, 10)}`);
    });
    for (const [i, c] of data.cases.entries()) {
      if (c.line === undefined || !isStr(c.file)) continue;
      const show = git(checkout, ['show', `${data.commit}:${c.file}`]);
      if (!show.ok) continue;
      const lines = show.out.split('\n');
      if (c.line > lines.length) {
        p(`case ${i} (${c.file}): line ${c.line} is past the end (${lines.length} lines)`);
        continue;
      }
      if (c.symbol) {
        const near = lines.slice(Math.max(0, c.line - 4), c.line + 3).join('\n');
        if (!near.includes(c.symbol))
          p(`case ${i} (${c.file}): symbol ${c.symbol} not within 3 lines of line ${c.line}`);
      }
    }
  }
  return { problems, data, expectedRecords: expectedAll.size };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const problems = [];
  const rows = [];
  for (const set of args.sets) {
    const dir = path.join(here, set);
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    for (const f of files) {
      const r = validateFile(set, f, args.repos);
      problems.push(...r.problems);
      if (r.data) {
        rows.push({
          set,
          repo: r.data.repo,
          commit: r.data.commit.slice(0, 12),
          language: r.data.language,
          records: r.data.records.length,
          cases: r.data.cases.length,
          expected: r.expectedRecords,
          layout: r.data.layout,
        });
      }
    }
  }

  const cols = ['set', 'repo', 'commit', 'language', 'records', 'cases', 'expected'];
  const width = Object.fromEntries(cols.map((c) => [c, Math.max(c.length, ...rows.map((r) => String(r[c]).length))]));
  const line = (r) => cols.map((c) => String(r[c]).padEnd(width[c])).join('  ');
  console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
  for (const r of rows) console.log(line(r));
  for (const set of args.sets) {
    const rs = rows.filter((r) => r.set === set);
    if (!rs.length) continue;
    const langs = new Set(rs.map((r) => r.language));
    console.log(
      `${set}: ${rs.length} repositories, ${rs.reduce((a, r) => a + r.cases, 0)} cases, ` +
        `${rs.reduce((a, r) => a + r.records, 0)} records, ${langs.size} languages (${[...langs].join(', ')})`,
    );
  }
  if (problems.length) {
    console.error(`\n${problems.length} problem(s):`);
    for (const x of problems) console.error(`  - ${x}`);
    process.exit(1);
  }
  console.log('ok');
}

main();
