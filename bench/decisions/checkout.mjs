#!/usr/bin/env node
// Clone every repository labelled in labels/ and holdout/ and check out the
// recorded commit.
//
//   node bench/decisions/checkout.mjs --out DIR [--source TEMPLATE] [--set labels|holdout] [--only owner/name]
//
// TEMPLATE is expanded per repository with {repo} (owner/name), {owner} and {name}.
// The default clones from GitHub: https://github.com/{repo}.git
// A local template also works, e.g. /srv/mirrors/{owner}+{name}: a bare git
// directory, a work tree, or a folder holding a bare repository in repo/.
//
// Each repository lands in DIR/<owner>__<name>. A checkout already at the
// recorded commit is left alone, so the script can be re-run at any time.
// Git is always run with argument arrays (no shell).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutAll, DEFAULT_SOURCE } from '../checkoutRepos.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function usage(code) {
  console.log(
    'usage: node checkout.mjs --out DIR [--source TEMPLATE] [--set labels|holdout] [--only owner/name]\n' +
      `  TEMPLATE placeholders: {repo} {owner} {name}; default ${DEFAULT_SOURCE}`,
  );
  process.exit(code);
}

function parseArgs(argv) {
  const args = { out: undefined, source: DEFAULT_SOURCE, sets: ['labels', 'holdout'], only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) usage(2);
      return argv[++i];
    };
    if (a === '--out') args.out = path.resolve(next());
    else if (a === '--source') args.source = next();
    else if (a === '--set') args.sets = [next()];
    else if (a === '--only') args.only = next();
    else if (a === '--help' || a === '-h') usage(0);
    else {
      console.error(`unknown argument: ${a}`);
      usage(2);
    }
  }
  if (!args.out) usage(2);
  return args;
}

function loadRepos(sets, only) {
  const repos = new Map();
  for (const set of sets) {
    const dir = path.join(here, set);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith('.json'))
      .sort()) {
      const data = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
      if (only && data.repo !== only) continue;
      repos.set(data.repo, { repo: data.repo, commit: data.commit, set });
    }
  }
  return [...repos.values()];
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  checkoutAll(loadRepos(args.sets, args.only), args.out, args.source);
}

main();
