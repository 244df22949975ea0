#!/usr/bin/env node
// Measures CodeIndex.callers against the TypeScript language service on a real TypeScript repo,
// plus cold indexing speed and single-file update time.
//
//   npx tsc -p tsconfig.json
//   node bench/callers/measure.mjs --root /path/to/ts-repo [--n 60] [--components 60] [--seed 42] [--updates 30] [--link-workspace] [--js] [--json] [--verbose]
//
// With --js, JavaScript files are measured too (the language service with allowJs infers their
// types), and functions and methods are sampled whether or not they are exported: CommonJS modules
// export by assignment, which the index does not mark on each method. The truth is then weaker: the
// service leaves a value `any` where JavaScript gives it no type it can follow (a CommonJS
// `module.exports = { f }` read through `const { f } = require(…)`, an import of the package by its
// own name from its tests), and misses the calls on it. Read its extra call sites, not just the score.
//
// Ground truth: for each sampled exported function or method, `findReferences` at its name, keeping
// only references that are the callee of a call (`f()`, `o.f()`, `o?.f()`, `new C()`) or the name of
// a JSX element (`<C/>`, `<C>` but not `</C>`, `<ns.C/>`), outside the definition. Precision and
// recall are micro-averaged over all sampled symbols.
//
// Symbols are sampled by a seeded hash of their name and place, not by position in a list, so an
// index that finds a few more or fewer symbols is measured on (almost) the same sample.
// React components are sampled on their own (--components N, default --n), found in the TypeScript
// syntax tree rather than taken from the index, so any version of the index is measured on the same
// sample: exported PascalCase functions and arrow consts that contain JSX, memo()/forwardRef()
// consts, classes extending (React.)Component or PureComponent. The function sample leaves them out.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { confidenceSets, stableSample, tally } from './shared.mjs';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'out', 'src', 'core');
const { Store } = require(join(out, 'store', 'store.js'));
const { CodeIndex } = require(join(out, 'index', 'codeIndex.js'));
const { all } = require(join(out, 'store', 'sqlite.js'));
const { defaultConfig } = require(join(out, 'config.js'));
const ts = require('typescript');

const args = parseArgs(process.argv.slice(2));
const root = resolve(args.root ?? '.');
const sampleSize = Number(args.n ?? 60);
const componentSampleSize = Number(args.components ?? sampleSize);
const seed = Number(args.seed ?? 42);
const updates = Number(args.updates ?? 30);
// --details lists every missed and extra call site per symbol instead of the first three.
const shown = args.details ? Infinity : 3;

const commit = git(['rev-parse', 'HEAD']);
// Without `npm install`, the language service cannot see sibling workspace packages (import 'pkg'), so
// its ground truth would miss their callers. --link-workspace creates node_modules/<name> links in the
// (throwaway) checkout, as a package manager would.
if (args['link-workspace']) linkWorkspacePackages();
const remote = safe(() => git(['remote', 'get-url', 'origin'])) ?? root;

// ---------------------------------------------------------------- index
const stateDir = mkdtempSync(join(tmpdir(), 'pc-bench-callers-'));
const store = await Store.open({ stateDir });
const index = new CodeIndex(store, root, defaultConfig);
const cold = await index.build();
const filesPerSecond = (cold.files / cold.ms) * 1000;
const warm = await index.build();

// ---------------------------------------------------------------- single-file updates
const withJs = !!args.js;
const candidates = all(
  store.index,
  `SELECT path FROM files WHERE lang IN ('typescript', 'tsx'${withJs ? ", 'javascript'" : ''}) ORDER BY path`,
).map((r) => r.path);
const rand = mulberry32(seed);
const updateMs = [];
// This step edits real files of the checkout and puts them back: one run at a time (a lock file), each
// write whole or not at all (a rename), and the file put back if the run is interrupted.
const lock = join(root, '.pc-bench-updates.lock');
const touched = new Map();
const putBack = () => {
  for (const [abs, text] of touched) writeWhole(abs, text);
  touched.clear();
  rmSync(lock, { force: true });
};
if (updates > 0) {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch {
    console.error(
      `${lock} exists: another run is timing updates in this checkout, or one was killed (check git status, then delete the file). --updates 0 skips this step.`,
    );
    process.exit(2);
  }
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      putBack();
      process.exit(130);
    });
}
for (const path of pick(candidates, updates, rand)) {
  const abs = join(root, path);
  const original = readFileSync(abs, 'utf8');
  touched.set(abs, original);
  try {
    writeWhole(abs, original + '\n// touched by the benchmark\n');
    const r = await index.updateFile(path);
    if (r.status === 'parsed') updateMs.push(r.ms);
  } finally {
    writeWhole(abs, original);
    touched.delete(abs);
    await index.updateFile(path);
  }
}
if (updates > 0) putBack();

/** Replaces a file's text by a rename, so that no reader ever sees it half written or empty. */
function writeWhole(abs, text) {
  const tmp = `${abs}.pc-bench-tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, abs);
}

// ---------------------------------------------------------------- language service
const tsFiles = candidates.filter((p) => !p.endsWith('.d.ts')).concat(candidates.filter((p) => p.endsWith('.d.ts')));
const configPath = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
let compilerOptions = {
  allowJs: false,
  jsx: ts.JsxEmit.Preserve,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
};
if (configPath) {
  const cfg = ts.parseJsonConfigFileContent(
    ts.readConfigFile(configPath, ts.sys.readFile).config ?? {},
    ts.sys,
    dirname(configPath),
  );
  compilerOptions = { ...cfg.options, noEmit: true };
}
// Without a tsconfig, JavaScript's require() resolves as Node resolves it.
if (withJs)
  compilerOptions = {
    ...compilerOptions,
    allowJs: true,
    maxNodeModuleJsDepth: 0,
    ...(configPath ? {} : { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }),
  };
const texts = new Map();
const host = {
  getScriptFileNames: () => tsFiles.map((p) => join(root, p)),
  getScriptVersion: () => '1',
  getScriptSnapshot: (f) => {
    if (!ts.sys.fileExists(f)) return undefined;
    let t = texts.get(f);
    if (t === undefined) texts.set(f, (t = ts.sys.readFile(f) ?? ''));
    return ts.ScriptSnapshot.fromString(t);
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => compilerOptions,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  realpath: ts.sys.realpath,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = service.getProgram();

// ---------------------------------------------------------------- sample
const components = [];
for (const path of tsFiles) if (!isTestPath(path)) components.push(...componentsIn(path));
const componentKeys = new Set(components.map((c) => `${c.path}:${c.name}`));
const population = all(
  store.index,
  `SELECT f.path AS path, s.name AS name, s.kind AS kind, s.start_line AS start_line, s.end_line AS end_line, s.container AS container FROM symbols s JOIN files f ON f.id = s.file WHERE ${withJs ? '' : 's.exported > 0 AND '}s.kind IN ('function', 'method', 'component') AND f.path NOT LIKE '%.d.ts' ORDER BY f.path, s.start_line`,
).filter(
  (s) =>
    s.name !== 'constructor' &&
    !isTestPath(s.path) &&
    !(s.kind !== 'method' && componentKeys.has(`${s.path}:${s.name}`)),
);
const functionResult = measure(stableSample(population, sampleSize, seed));
const componentResult = measure(stableSample(components, componentSampleSize, seed));

/** Precision and recall of index.callers() against the language service over a sample. */
function measure(sample) {
  const totals = {
    all: { tp: 0, fp: 0, fn: 0 },
    resolvedLikely: { tp: 0, fp: 0, fn: 0 },
    resolved: { tp: 0, fp: 0, fn: 0 },
  };
  const perSymbol = [];
  let truthCalls = 0;
  const queryMs = [];
  for (const s of sample) {
    const truth = callSitesFromService(s);
    if (truth === undefined) continue;
    truthCalls += truth.size;
    const t0 = performance.now();
    const got = index.callers({ name: s.name, path: s.path, line: s.start_line }, 10000);
    queryMs.push(performance.now() - t0);
    const sets = confidenceSets(got, key);
    tally(totals, sets, truth);
    const missed = [...truth].filter((x) => !sets.resolvedLikely.has(x));
    const extra = [...sets.all].filter((x) => !truth.has(x));
    const extraLikely = [...sets.resolvedLikely].filter((x) => !truth.has(x) && !sets.resolved.has(x));
    const extraResolved = [...sets.resolved].filter((x) => !truth.has(x));
    perSymbol.push({
      symbol: `${s.path}:${s.start_line} ${s.container ? s.container + '.' : ''}${s.name}`,
      truth: truth.size,
      found: sets.all.size,
      missed: missed.slice(0, shown),
      extra: extra.slice(0, shown),
      extraLikely: extraLikely.slice(0, shown),
      extraLikelyCount: extraLikely.length,
      extraResolved: extraResolved.slice(0, shown),
      extraResolvedCount: extraResolved.length,
    });
  }
  return {
    summary: {
      sampled: perSymbol.length,
      seed,
      truthCallSites: truthCalls,
      queryMs: {
        p50: round(quantile(queryMs, 0.5), 2),
        p95: round(quantile(queryMs, 0.95), 2),
        max: round(Math.max(...queryMs), 2),
      },
      all: score(totals.all),
      resolvedOrLikely: score(totals.resolvedLikely),
      resolvedOnly: score(totals.resolved),
    },
    perSymbol,
  };
}

function score({ tp, fp, fn }) {
  return { precision: round(tp / Math.max(1, tp + fp)), recall: round(tp / Math.max(1, tp + fn)), tp, fp, fn };
}
const report = {
  repo: remote,
  commit,
  index: {
    files: cold.files,
    symbols: cold.symbols,
    calls: cold.calls,
    coldMs: cold.ms,
    filesPerSecond: round(filesPerSecond, 1),
    warmRebuildMs: warm.ms,
    singleFileUpdateMs: {
      n: updateMs.length,
      p50: round(quantile(updateMs, 0.5), 2),
      p95: round(quantile(updateMs, 0.95), 2),
      max: round(Math.max(...updateMs), 2),
    },
  },
  callers: { ...functionResult.summary, population: population.length },
  components: { ...componentResult.summary, population: components.length },
};
if (args.json)
  process.stdout.write(
    JSON.stringify(
      { ...report, perSymbol: functionResult.perSymbol, perComponent: componentResult.perSymbol },
      null,
      2,
    ) + '\n',
  );
else {
  console.log(`repo ${report.repo} @ ${report.commit}`);
  console.log(
    `index: ${cold.files} files, ${cold.symbols} symbols, ${cold.calls} calls; cold ${cold.ms} ms (${report.index.filesPerSecond} files/s), warm rebuild ${warm.ms} ms`,
  );
  console.log(
    `single-file update (${updateMs.length} files): p50 ${report.index.singleFileUpdateMs.p50} ms, p95 ${report.index.singleFileUpdateMs.p95} ms`,
  );
  for (const [label, r, per] of [
    ['functions and methods', report.callers, functionResult.perSymbol],
    ['components', report.components, componentResult.perSymbol],
  ]) {
    console.log(
      `callers of ${label} vs TypeScript findReferences: ${r.sampled} of ${r.population} (seed ${seed}), ${r.truthCallSites} call sites; query p50 ${r.queryMs.p50} ms, p95 ${r.queryMs.p95} ms`,
    );
    for (const k of ['all', 'resolvedOrLikely', 'resolvedOnly']) {
      const x = r[k];
      console.log(
        `  ${k.padEnd(17)} precision ${x.precision}  recall ${x.recall}  (tp ${x.tp}, fp ${x.fp}, fn ${x.fn})`,
      );
    }
    if (args.verbose) for (const p of per) if (p.missed.length || p.extra.length) console.log(' ', JSON.stringify(p));
  }
}
store.dispose();
rmSync(stateDir, { recursive: true, force: true });

// ---------------------------------------------------------------- helpers

/** Call sites (path:line:column of the callee name) that the language service finds for a symbol. */
function callSitesFromService(s) {
  const file = join(root, s.path);
  const sf = program.getSourceFile(file);
  if (!sf) return undefined;
  const pos = namePosition(sf, s);
  if (pos === undefined) return undefined;
  const refs = service.findReferences(file, pos) ?? [];
  const found = new Set();
  for (const group of refs) {
    for (const ref of group.references) {
      if (ref.isDefinition) continue;
      const refFile = program.getSourceFile(ref.fileName);
      if (!refFile) continue;
      const node = tokenAt(refFile, ref.textSpan.start);
      if (!node || !isCallee(node)) continue;
      const rel = ref.fileName
        .slice(root.length + 1)
        .split('\\')
        .join('/');
      const lc = refFile.getLineAndCharacterOfPosition(ref.textSpan.start);
      found.add(`${rel}:${lc.line + 1}:${lc.character + 1}`);
    }
  }
  return found;
}

function namePosition(sf, s) {
  const text = sf.text;
  const re = new RegExp(`(?<![\\w$#])${s.name.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g');
  for (let line = s.start_line - 1; line < Math.min(s.end_line, s.start_line + 5); line++) {
    const start = sf.getPositionOfLineAndCharacter(line, 0);
    const end = line + 1 < sf.getLineStarts().length ? sf.getPositionOfLineAndCharacter(line + 1, 0) : text.length;
    re.lastIndex = 0;
    const m = re.exec(text.slice(start, end));
    if (m) return start + m.index;
  }
  return undefined;
}

function tokenAt(sf, pos) {
  let found;
  const visit = (node) => {
    if (pos < node.getStart(sf) || pos >= node.getEnd()) return;
    found = node;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The callee of a call, a tagged template (``db.sql`…` `` calls `sql`) or a construction, or the name of an opening or self-closing JSX element. */
function isCallee(node) {
  let target = node;
  const p = node.parent;
  if (
    p &&
    (ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) &&
    (p.name === node || p.argumentExpression === node)
  )
    target = p;
  const use = target.parent;
  if (!use) return false;
  if (ts.isJsxOpeningElement(use) || ts.isJsxSelfClosingElement(use)) return use.tagName === target;
  if (ts.isTaggedTemplateExpression(use)) return use.tag === target;
  return (ts.isCallExpression(use) || ts.isNewExpression(use)) && use.expression === target;
}

function isTestPath(path) {
  return /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[cm]?[jt]sx?$/.test(path);
}

/** Exported React components declared at the top of a file, by the rules in the header. */
function componentsIn(path) {
  const sf = program.getSourceFile(join(root, path));
  if (!sf || !/\.[jt]sx$/.test(path)) return [];
  const out = [];
  const exported = (node) => !!node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const pascal = (name) => /^[A-Z]/.test(name) && name !== name.toUpperCase();
  const add = (nameNode, node) => {
    const line = sf.getLineAndCharacterOfPosition(nameNode.getStart(sf)).line + 1;
    out.push({
      path,
      name: nameNode.text,
      kind: 'component',
      start_line: line,
      end_line: sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1,
    });
  };
  for (const st of sf.statements) {
    if (!exported(st)) continue;
    if (ts.isFunctionDeclaration(st) && st.name && pascal(st.name.text) && hasJsx(st.body)) add(st.name, st);
    else if (ts.isClassDeclaration(st) && st.name && extendsComponent(st)) add(st.name, st);
    else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !d.initializer) continue;
        const init = d.initializer;
        const fn = ts.isArrowFunction(init) || ts.isFunctionExpression(init);
        if ((fn && pascal(d.name.text) && hasJsx(init)) || isWrapper(init)) add(d.name, st);
      }
    }
  }
  return out;
}

function hasJsx(node) {
  let found = false;
  const visit = (n) => {
    if (found) return;
    if (ts.isJsxElement(n) || ts.isJsxSelfClosingElement(n) || ts.isJsxFragment(n)) found = true;
    else ts.forEachChild(n, visit);
  };
  if (node) visit(node);
  return found;
}

function isWrapper(node) {
  if (!ts.isCallExpression(node)) return false;
  const e = node.expression;
  const name = ts.isIdentifier(e)
    ? e.text
    : ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'React'
      ? e.name.text
      : '';
  return name === 'memo' || name === 'forwardRef';
}

function extendsComponent(cls) {
  const ext = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  return !!ext && /^(React\.)?(Pure)?Component$/.test(ext.getText());
}

function linkWorkspacePackages() {
  const manifests = git(['ls-files', '*package.json'])
    .split('\n')
    .filter((p) => p && !p.includes('node_modules/'));
  for (const m of manifests) {
    const name = safe(() => JSON.parse(readFileSync(join(root, m), 'utf8')).name);
    if (typeof name !== 'string' || !name) continue;
    const link = join(root, 'node_modules', ...name.split('/'));
    if (existsSync(link)) continue;
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, dirname(m)), link, 'dir');
  }
}

function key(c) {
  return `${c.path}:${c.line}:${c.column}`;
}

function git(a) {
  return execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
}

function safe(fn) {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) o[a.slice(2)] = true;
    else o[a.slice(2)] = argv[++i];
  }
  return o;
}

function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(list, n, rnd) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

function quantile(xs, q) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

function round(x, d = 3) {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}
