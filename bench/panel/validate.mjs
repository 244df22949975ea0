#!/usr/bin/env node
// Check every panel label file against the checkouts made by checkout.mjs.
//
//   node bench/panel/validate.mjs --repos DIR [--only owner/name] [--labels DIR]
//
// For each case: the file exists at the labelled commit, the line is inside it and the symbol is
// named within three lines of it, and every path in decisions, docs, callers, cochange and
// acceptable exists (a `#Heading` of a Markdown file must be one of its headings). The shape of the
// files themselves is checked by `proactive-context eval panel`. Exit code 1 on any problem.
// Git runs with argument arrays only.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const args = { repos: undefined, only: undefined, labels: path.join(here, 'labels') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--repos' && i + 1 < argv.length) args.repos = path.resolve(argv[++i]);
    else if (argv[i] === '--only' && i + 1 < argv.length) args.only = argv[++i];
    else if (argv[i] === '--labels' && i + 1 < argv.length) args.labels = path.resolve(argv[++i]);
    else {
      console.error('usage: node validate.mjs --repos DIR [--only owner/name] [--labels DIR]');
      process.exit(2);
    }
  }
  if (!args.repos) {
    console.error('usage: node validate.mjs --repos DIR [--only owner/name] [--labels DIR]');
    process.exit(2);
  }
  return args;
}

function git(args, cwd) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { ok: r.status === 0, out: r.stdout ?? '' };
}

const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');

function headingsOf(file) {
  const out = [];
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (m) out.push(slug(m[1].replace(/<!--.*?-->/g, '')));
  }
  return out;
}

function checkRepo(labels, dir) {
  const problems = [];
  if (!existsSync(dir)) return [`no checkout at ${dir} (run checkout.mjs)`];
  const head = git(['rev-parse', 'HEAD'], dir).out.trim();
  if (head !== labels.commit)
    problems.push(`checkout is at ${head.slice(0, 12)}, labels are for ${labels.commit.slice(0, 12)}`);
  const tracked = new Set(git(['ls-files', '-z'], dir).out.split('\0').filter(Boolean));
  const exists = (p) => tracked.has(p);
  const pathOf = (entry) => {
    if (/^[0-9a-f]{7,40}$/.test(entry)) return undefined; // a commit
    // A file may have `#` in its name (`0005-use-dotNet-C#-for-….md`): the whole entry first.
    if (exists(entry)) return entry;
    const bare = entry.split('#')[0];
    if (exists(bare)) return bare;
    const colon = bare.lastIndexOf(':');
    return colon > 0 ? bare.slice(0, colon) : bare;
  };
  labels.cases.forEach((c, i) => {
    const at = `case ${i} (${c.file}${c.line ? `:${c.line}` : ''})`;
    if (!exists(c.file)) {
      problems.push(`${at}: file not in the checkout`);
      return;
    }
    // `eval panel` refuses an item both wanted and only acceptable.
    const fine = new Set(c.acceptable ?? []);
    for (const list of ['decisions', 'docs', 'callers', 'cochange'])
      for (const v of c[list] ?? [])
        if (fine.has(v)) problems.push(`${at}: "${v}" is both in "${list}" and "acceptable"`);
    if (c.line !== undefined) {
      const lines = readFileSync(path.join(dir, c.file), 'utf8').split('\n');
      if (c.line > lines.length) problems.push(`${at}: line beyond the end (${lines.length} lines)`);
      else if (c.symbol) {
        const name = c.symbol.split(/[.:]/).pop();
        const near = lines.slice(Math.max(0, c.line - 4), c.line + 3).some((l) => l.includes(name));
        if (!near) problems.push(`${at}: symbol ${c.symbol} not within three lines`);
      }
    }
    for (const list of ['decisions', 'docs', 'callers', 'cochange', 'acceptable']) {
      for (const entry of c[list] ?? []) {
        const p = pathOf(entry);
        if (p === undefined) continue;
        if (!exists(p)) {
          problems.push(`${at}: ${list} entry ${entry}: no such file`);
          continue;
        }
        // The section after the file's path, if any (the path itself may hold a `#`).
        const hash = entry.charAt(p.length) === '#' ? p.length : -1;
        if (
          hash > 0 &&
          /\.(md|markdown|mdx)$/i.test(p) &&
          !headingsOf(path.join(dir, p)).includes(slug(entry.slice(hash + 1)))
        ) {
          problems.push(`${at}: ${list} entry ${entry}: no such heading`);
        }
      }
    }
  });
  return problems;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const dir = args.labels;
  let failed = 0;
  let cases = 0;
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const labels = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
    if (args.only && labels.repo !== args.only) continue;
    const problems = checkRepo(labels, path.join(args.repos, labels.repo.replace('/', '__')));
    cases += labels.cases.length;
    failed += problems.length;
    console.log(
      `${problems.length ? 'FAIL' : 'ok  '} ${(labels.set ?? 'reported').padEnd(8)} ${labels.repo.padEnd(44)} ${String(labels.cases.length).padStart(3)} cases`,
    );
    for (const p of problems) console.log(`       ${p}`);
  }
  console.log(`${cases} cases, ${failed} problem${failed === 1 ? '' : 's'}`);
  process.exit(failed ? 1 : 0);
}

main();
