/**
 * Redacts well-known secrets from text before it leaves the machine (a chat prompt, an MCP reply).
 * File-name rules keep `.env` and keys out; this catches what those miss: a tracked `api-token.json`,
 * an inline `sk-live-…` key in code, a JWT in a fixture. Every pattern is linear-time (no nested or
 * adjacent quantifiers that can trade characters; `npm run lint:regex` checks them).
 */

export interface Redaction {
  /** What was redacted, as shown in the text: `AWS secret key`. */
  label: string;
  count: number;
}

export interface RedactedText {
  text: string;
  /** Empty when nothing was redacted. */
  redactions: Redaction[];
}

interface TokenRule {
  label: string;
  re: RegExp;
}

/** Tokens recognisable by their own shape, wherever they appear. */
const TOKEN_RULES: readonly TokenRule[] = [
  { label: 'AWS access key', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  { label: 'GitHub token', re: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g },
  { label: 'GitHub token', re: /\bgithub_pat_[A-Za-z0-9_]{22,255}/g },
  { label: 'GitLab token', re: /\bglpat-[A-Za-z0-9_-]{20,255}/g },
  { label: 'Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,255}/g },
  { label: 'Slack webhook', re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{10,255}/g },
  { label: 'Stripe key', re: /\b[rs]k_live_[A-Za-z0-9]{10,255}/g },
  { label: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { label: 'Anthropic API key', re: /\bsk-ant-[A-Za-z0-9_-]{20,255}/g },
  { label: 'API key', re: /\bsk-[A-Za-z0-9][A-Za-z0-9_-]{19,255}/g },
  // Starts only where a token starts: from inside a long run of token characters every position would rescan it.
  { label: 'JWT', re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}/g },
];

/** `name = value` and `"name": "value"` where the name says it holds a secret and the value is long. */
const ASSIGNMENT =
  /(?<![\w.-])([A-Za-z_][\w.-]{0,60})(["']?)[ \t]*[:=][ \t]*(?:"([^"\n]{8,512})"|'([^'\n]{8,512})'|([A-Za-z0-9_+/=.~!@#$%^&*-]{12,512})(?![\w(]))/g;
const SECRET_NAME =
  /pass(?:word|wd|phrase)?$|^pwd$|secret|api[_.-]?key|apikey|access[_.-]?key|token$|auth[_.-]?token|credential|private[_.-]?key/i;
/** A name that says "secret" but whose value is usually not one (a path, a flag, a count). */
const NOT_A_SECRET_NAME =
  /(?:file|path|dir|name|url|uri|env|type|length|len|count|min|max|ttl|expiry|expires|expiration|enabled?|required|field|header|prefix|policy|rotation|id)$/i;

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

/** Redacts secrets from text; the same text comes back unchanged (same string) when there are none. */
export function redactSecrets(text: string): RedactedText {
  const counts = new Map<string, number>();
  const bump = (label: string) => counts.set(label, (counts.get(label) ?? 0) + 1);
  let out = redactPemBlocks(text, bump);
  for (const rule of TOKEN_RULES) {
    rule.re.lastIndex = 0;
    if (!rule.re.test(out)) continue;
    out = out.replace(rule.re, () => {
      bump(rule.label);
      return `[redacted: ${rule.label}]`;
    });
  }
  out = out.replace(ASSIGNMENT, (whole, name: string, quote: string, dq?: string, sq?: string, bare?: string) => {
    const value = dq ?? sq ?? bare ?? '';
    if (
      !SECRET_NAME.test(name) ||
      NOT_A_SECRET_NAME.test(name) ||
      value.startsWith('[redacted') ||
      !looksLikeSecretValue(value)
    )
      return whole;
    const label = /aws/i.test(name) && /secret/i.test(name) ? 'AWS secret key' : 'secret value';
    bump(label);
    return (
      whole.slice(0, whole.length - value.length - (dq !== undefined || sq !== undefined ? 1 : 0)) +
      `[redacted: ${label}]` +
      (dq !== undefined ? '"' : sq !== undefined ? "'" : '')
    );
  });
  if (!counts.size) return { text, redactions: [] };
  return { text: out, redactions: [...counts].map(([label, count]) => ({ label, count })) };
}

/** One line saying what was redacted, for the end of the text: empty when nothing was. */
export function redactionNote(redactions: readonly Redaction[]): string {
  if (!redactions.length) return '';
  const total = redactions.reduce((n, r) => n + r.count, 0);
  const what = redactions.map((r) => (r.count > 1 ? `${r.count} × ${r.label}` : r.label)).join(', ');
  return `[${total} secret${total === 1 ? '' : 's'} redacted before leaving this machine: ${what}]`;
}

/** Redacts and, when anything was redacted, appends the one-line note. */
export function redactWithNote(text: string): string {
  const r = redactSecrets(text);
  return r.redactions.length ? `${r.text}\n${redactionNote(r.redactions)}` : text;
}

function redactPemBlocks(text: string, bump: (label: string) => void): string {
  PEM_BEGIN.lastIndex = 0;
  if (!PEM_BEGIN.test(text)) return text;
  PEM_BEGIN.lastIndex = 0;
  let out = '';
  let from = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    const endMarker = text.indexOf('-----END ', m.index + m[0].length);
    const endLine = endMarker < 0 ? -1 : text.indexOf('-----', endMarker + 9);
    const stop = endLine < 0 ? text.length : endLine + 5;
    out += text.slice(from, m.index) + '[redacted: private key]';
    bump('private key');
    from = stop;
    PEM_BEGIN.lastIndex = stop;
  }
  return out + text.slice(from);
}

/** Long enough and not an obvious placeholder, reference or word. */
function looksLikeSecretValue(value: string): boolean {
  if (
    /^(?:\$\{|\$[A-Z_]|%\(|<|\{\{|process\.env|os\.environ|env\.|xxx|\*{3}|changeme|password|secret|example|your[_-]|placeholder|none|null|true|false|undefined)/i.test(
      value,
    )
  )
    return false;
  // A value of letters only is a word or an identifier (a variable name), not a key.
  return !/^[A-Za-z_.-]+$/.test(value);
}

/**
 * Redacts every string inside a JSON-like value (tool results, resource contents); a text that had
 * secrets gets the note as its last line when `noteKey` names it (for example `text`).
 */
export function redactDeep<T>(value: T, noteKey?: string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactSecrets(v).text;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v))
        out[k] = k === noteKey && typeof x === 'string' ? redactWithNote(x) : walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
