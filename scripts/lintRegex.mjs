// Checks every regular expression literal in src/ (and `new RegExp('literal')`) for super-linear
// backtracking with recheck. Repository text is hostile input: a regex that runs on it must be
// linear-time or bounded. Usage: node scripts/lintRegex.mjs [folder-or-file ...] [--json]
// Exit 1 when a vulnerable regex is found; prints file:line, the complexity and an attack string.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { checkSync } from 'recheck';

const args = process.argv.slice(2);
const json = args.includes('--json');
const roots = args.filter((a) => !a.startsWith('--'));
if (!roots.length) roots.push('src');

function* files(path) {
  const st = statSync(path);
  if (st.isFile()) {
    if (/\.(ts|tsx|mts|cts)$/.test(path) && !path.endsWith('.d.ts')) yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) yield* files(join(path, name));
}

/** Regex literals and `new RegExp('…', '…')` / `RegExp('…')` calls with literal arguments. */
function regexesOf(file) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const raw = node.getText(sf);
      const end = raw.lastIndexOf('/');
      found.push({ node, source: raw.slice(1, end), flags: raw.slice(end + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText(sf) === 'RegExp') {
      const [src, flags] = node.arguments ?? [];
      if (src && ts.isStringLiteralLike(src))
        found.push({ node, source: src.text, flags: flags && ts.isStringLiteralLike(flags) ? flags.text : '' });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found.map((r) => ({ ...r, line: sf.getLineAndCharacterOfPosition(r.node.getStart(sf)).line + 1 }));
}

const results = [];
for (const root of roots) {
  for (const file of files(root)) {
    for (const r of regexesOf(file)) {
      let verdict;
      try {
        verdict = checkSync(r.source, r.flags.replace(/[^dgimsuy]/g, ''), { timeout: 20_000 });
      } catch (err) {
        verdict = { status: 'unknown', error: { kind: String(err?.message ?? err) } };
      }
      results.push({
        where: `${relative(process.cwd(), file)}:${r.line}`,
        regex: `/${r.source}/${r.flags}`,
        status: verdict.status,
        complexity: verdict.complexity?.type,
        attack: verdict.attack?.pattern,
        note: verdict.error?.kind,
      });
    }
  }
}

const vulnerable = results.filter((r) => r.status === 'vulnerable');
const unknown = results.filter((r) => r.status === 'unknown');
if (json) process.stdout.write(JSON.stringify({ checked: results.length, vulnerable, unknown }, null, 2) + '\n');
else {
  for (const r of vulnerable)
    process.stdout.write(`${r.where}  ${r.complexity}  ${r.regex}\n    attack: ${r.attack}\n`);
  for (const r of unknown) process.stdout.write(`${r.where}  not decided (${r.note})  ${r.regex}\n`);
  process.stdout.write(
    `${results.length} regexes checked: ${vulnerable.length} vulnerable, ${unknown.length} not decided.\n`,
  );
}
process.exitCode = vulnerable.length ? 1 : 0;
