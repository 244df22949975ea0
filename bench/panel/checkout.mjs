#!/usr/bin/env node
// Clone every repository labelled in labels/ and check out the recorded commit,
// for `proactive-context eval panel --repos DIR --labels bench/panel/labels`.
//
//   node bench/panel/checkout.mjs --out DIR [--source TEMPLATE] [--set reported|check|all] [--only owner/name]
//
// TEMPLATE is expanded per repository with {repo} (owner/name), {owner} and {name}.
// The default clones from GitHub: https://github.com/{repo}.git
// A local template also works, e.g. /srv/mirrors/{owner}+{name}: a bare git
// directory, a work tree, or a folder holding a bare repository in repo/.
//
// Each repository lands in DIR/<owner>__<name>. A checkout already at the
// recorded commit is left alone, so the script can be re-run at any time.
// Git is always run with argument arrays (no shell).

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutAll, DEFAULT_SOURCE } from '../checkoutRepos.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function usage(code) {
  console.log(
    'usage: node checkout.mjs --out DIR [--source TEMPLATE] [--set reported|check|all] [--only owner/name]\n' +
      `  TEMPLATE placeholders: {repo} {owner} {name}; default ${DEFAULT_SOURCE}`,
  );
  process.exit(code);
}

function parseArgs(argv) {
  const args = { out: undefined, source: DEFAULT_SOURCE, set: 'all', only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) usage(2);
      return argv[++i];
    };
    if (a === '--out') args.out = path.resolve(next());
    else if (a === '--source') args.source = next();
    else if (a === '--set') args.set = next();
    else if (a === '--only') args.only = next();
    else if (a === '--help' || a === '-h') usage(0);
    else {
      console.error(`unknown argument: ${a}`);
      usage(2);
    }
  }
  if (!args.out || !['reported', 'check', 'all'].includes(args.set)) usage(2);
  return args;
}

// Each label file names its repository, commit and set (`reported` unless it says `check`).
function loadRepos(set, only) {
  const dir = path.join(here, 'labels');
  const repos = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const data = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
    const which = data.set ?? 'reported';
    if ((only && data.repo !== only) || (set !== 'all' && which !== set)) continue;
    repos.push({ repo: data.repo, commit: data.commit, set: which });
  }
  return repos;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  checkoutAll(loadRepos(args.set, args.only), args.out, args.source);
}

main();
