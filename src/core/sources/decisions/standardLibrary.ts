/**
 * Modules of a language's own standard library: every project may import them, none chose them, so
 * an import of `json`, `logging`, `sort` or `fs` says nothing about which decision governs a file.
 */

/** Python's standard modules that projects commonly import (first dotted segment). */
const PYTHON: ReadonlySet<string> = new Set(
  (
    'abc argparse array ast asyncio base64 bisect calendar collections concurrent contextlib contextvars copy csv ' +
    'dataclasses datetime decimal difflib email enum errno fnmatch fractions functools getpass gettext glob gzip ' +
    'hashlib heapq hmac html http importlib inspect io ipaddress itertools json locale logging math mimetypes ' +
    'multiprocessing numbers operator os pathlib pickle platform pprint queue random re secrets select shlex ' +
    'shutil signal socket sqlite3 ssl stat statistics string struct subprocess sys tempfile textwrap threading ' +
    'time timeit tomllib traceback types typing unicodedata unittest urllib uuid warnings weakref xml zipfile ' +
    'zoneinfo __future__'
  ).split(' '),
);

/** Node's built-in modules (also written `node:fs`). */
const NODE: ReadonlySet<string> = new Set(
  (
    'assert async_hooks buffer child_process cluster console crypto dgram dns events fs http http2 https ' +
    'inspector module net os path perf_hooks process querystring readline stream string_decoder timers tls ' +
    'tty url util v8 vm worker_threads zlib'
  ).split(' '),
);

/** Rust's standard library crates. */
const RUST: ReadonlySet<string> = new Set(['std', 'core', 'alloc']);

/** True when `spec`, imported by `file`, is a module of that language's standard library. */
export function isStandardLibrary(spec: string, file: string): boolean {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'go') return !spec.split('/')[0].includes('.');
  if (ext === 'py' || ext === 'pyi') return PYTHON.has(spec.split('.')[0]);
  if (/^[cm]?[jt]sx?$/.test(ext)) return spec.startsWith('node:') || NODE.has(spec.split('/')[0]);
  // Rust's own crates: `std`, and `core` and `alloc` beneath it.
  if (ext === 'rs') return RUST.has(spec.split('::')[0]);
  return false;
}
