// Shared by the offline ranking scripts: loading the compiled engine (run `npx tsc -p tsconfig.json`
// first) and reading `--name value` / `--flag` options off the argument list.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** A compiled engine module, by its path under out/src/core (e.g. 'cochange/relatedFiles'); `eval/…` is under out/src/measure. */
export function engineModule(path) {
  return require(join(here, '../../out/src', path.startsWith('eval/') ? 'measure' : 'core', `${path}.js`));
}

/** Removes `--name value` from args and returns the value, or `def` when absent. */
export function takeOption(args, name, def) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args.splice(i, 2)[1] : def;
}

/** Removes `--name` from args and says whether it was there. */
export function takeFlag(args, name) {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return false;
  args.splice(i, 1);
  return true;
}
