/**
 * Documents that translate another document of the workspace: `doc/README-ja.md` beside a
 * `README.md`, `README.zh-CN.md`, `button/index.zh-CN.md` beside `button/index.en-US.md`,
 * `docs/ja/guide.md` beside `docs/guide.md` or `docs/en/guide.md`. Their sections say what the
 * original's say, so the panel shows the original's once instead of one copy per language.
 * A document named like a translation whose original is not in the workspace is kept.
 */
export function translatedDocs(paths: readonly string[]): Set<string> {
  const all = new Set(paths);
  const names = new Set<string>();
  // Per folder, the base names that have an English version (`index` of `index.en-US.md`).
  const english = new Set<string>();
  for (const p of paths) {
    const { dir, name } = split(p);
    names.add(name);
    const suffix = languageSuffix(name);
    if (suffix && isEnglish(suffix.lang)) english.add(`${dir}${suffix.base}.${suffix.ext}`);
  }
  const out = new Set<string>();
  for (const p of paths) {
    const { dir, name } = split(p);
    const suffix = languageSuffix(name);
    if (
      suffix &&
      !isEnglish(suffix.lang) &&
      (names.has(`${suffix.base}.${suffix.ext}`) || english.has(`${dir}${suffix.base}.${suffix.ext}`))
    ) {
      out.add(p);
      continue;
    }
    const segments = p.split('/');
    for (let i = 0; i < segments.length - 1; i++) {
      const lang = segments[i].toLowerCase();
      if (!LANGUAGES.has(lang.slice(0, 2)) || !isLanguageTag(lang)) continue;
      const without = [...segments.slice(0, i), ...segments.slice(i + 1)].join('/');
      const inEnglish = (tag: string) => all.has([...segments.slice(0, i), tag, ...segments.slice(i + 1)].join('/'));
      if (all.has(without) || inEnglish('en') || inEnglish('en-US') || inEnglish('en-us')) {
        out.add(p);
        break;
      }
    }
  }
  return out;
}

/**
 * Languages documents are commonly translated into, by ISO 639-1 code, and the country codes
 * projects often use in their place (`README-CN.md`, `README_jp.md`, `README-kr.md`). English is
 * not among them: it is what the others translate.
 */
const LANGUAGES = new Set(
  (
    'ar az be bg bn bs ca cs cy da de el es et eu fa fi fr ga gl he hi hr hu hy id is it ja ka kk km ko ky lo lt lv mk ml mn mr ms my nb ne nl nn no ' +
    'pa pl pt ro ru si sk sl sq sr sv sw ta te th tl tr uk ur uz vi zh cn jp kr tw ua br'
  ).split(' '),
);

/** `zh`, `zh-CN`, `zh_Hans`, `pt-br`: a language code, optionally with a region or script of 2 to 4 letters. */
function isLanguageTag(tag: string): boolean {
  if (tag.length === 2) return true;
  if (tag.length < 5 || tag.length > 7 || (tag[2] !== '-' && tag[2] !== '_')) return false;
  for (let i = 3; i < tag.length; i++) {
    const c = tag.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return false;
  }
  return true;
}

function isEnglish(lang: string): boolean {
  return lang.slice(0, 2).toLowerCase() === 'en' && isLanguageTag(lang);
}

function split(path: string): { dir: string; name: string } {
  const slash = path.lastIndexOf('/');
  return { dir: path.slice(0, slash + 1), name: path.slice(slash + 1) };
}

/**
 * `README-ja.md` → { base: 'README', lang: 'ja', ext: 'md' }; `index.zh-CN.md` → lang 'zh-CN'.
 * Undefined when the name carries no language tag that LANGUAGES (or English) knows.
 */
function languageSuffix(name: string): { base: string; lang: string; ext: string } | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const stem = name.slice(0, dot);
  const ext = name.slice(dot + 1);
  // The tag is the last two parts when they make a language and region (`zh-CN`), else the last part.
  for (const take of [2, 1]) {
    let at = stem.length;
    for (let k = 0; k < take && at > 0; k++)
      at = Math.max(stem.lastIndexOf('.', at - 1), stem.lastIndexOf('-', at - 1), stem.lastIndexOf('_', at - 1));
    if (at <= 0) continue;
    const lang = stem.slice(at + 1);
    const code = lang.slice(0, 2).toLowerCase();
    if (isLanguageTag(lang) && (LANGUAGES.has(code) || code === 'en')) return { base: stem.slice(0, at), lang, ext };
  }
  return undefined;
}
