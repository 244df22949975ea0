// Method names of JavaScript's platform, which a workspace method of the same name must not be taken for.

/**
 * Methods of JavaScript's own values (arrays, strings, promises, maps, functions) whose results are
 * chained: `rows.filter(…).forEach(…)` is most likely Array's filter, whatever a workspace class of
 * that name returns, so such a result says nothing about the receiver's type.
 */
export const BUILTIN_RESULTS = new Set([
  'filter', 'map', 'flatMap', 'flat', 'slice', 'splice', 'concat', 'sort', 'reverse', 'toSorted', 'toReversed', 'toSpliced',
  'reduce', 'reduceRight', 'entries', 'keys', 'at', 'trim', 'trimStart', 'trimEnd', 'split', 'replace', 'replaceAll',
  'toLowerCase', 'toUpperCase', 'substring', 'substr', 'padStart', 'padEnd', 'repeat', 'normalize', 'charAt', 'match',
  'matchAll', 'toString', 'toFixed', 'valueOf', 'toJSON', 'then', 'catch', 'finally', 'bind', 'call', 'apply', 'exec',
  'parse', 'stringify', 'assign', 'freeze',
]);
/** Methods of the platform (DOM, Node, the standard library) specific-looking enough to pass for a workspace's own. */
export const PLATFORM_METHODS = new Set([
  'addEventListener', 'removeEventListener', 'dispatchEvent', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
  'toLocaleString', 'getElementById', 'getElementsByClassName', 'getElementsByTagName', 'querySelector', 'querySelectorAll',
  'setAttribute', 'getAttribute', 'removeAttribute', 'hasAttribute', 'appendChild', 'removeChild', 'replaceChild', 'insertBefore',
  'cloneNode', 'createElement', 'createTextNode', 'preventDefault', 'stopPropagation', 'stopImmediatePropagation',
  'getBoundingClientRect', 'scrollIntoView', 'requestAnimationFrame', 'cancelAnimationFrame', 'getComputedStyle',
  'toLowerCase', 'toUpperCase', 'localeCompare', 'startsWith', 'endsWith', 'lastIndexOf', 'findIndex', 'findLast', 'findLastIndex',
  'toISOString', 'toDateString', 'toTimeString', 'getTime', 'getFullYear', 'getMonth', 'getDate', 'getHours', 'getMinutes',
  'getSeconds', 'getMilliseconds', 'getTimezoneOffset', 'setFullYear', 'toFixed', 'toPrecision', 'padStart', 'padEnd',
  'trimStart', 'trimEnd', 'replaceAll', 'matchAll', 'codePointAt', 'charCodeAt', 'fromCharCode', 'getItem', 'setItem',
  'removeItem', 'readFile', 'writeFile', 'readFileSync', 'writeFileSync', 'existsSync', 'mkdirSync', 'readdirSync', 'statSync',
  'unlinkSync', 'createServer', 'createReadStream', 'createWriteStream', 'setTimeout', 'clearTimeout', 'setInterval',
  'clearInterval', 'setImmediate', 'postMessage', 'getContext', 'toDataURL', 'structuredClone', 'defineProperty',
  'getOwnPropertyNames', 'getPrototypeOf', 'setPrototypeOf', 'isArray', 'isInteger', 'isFinite', 'parseFloat', 'parseInt',
  'toBeDefined', 'toBeUndefined', 'toBeTruthy', 'toBeFalsy', 'toBeNull', 'toEqual', 'toStrictEqual', 'toBeInstanceOf',
  'toHaveBeenCalled', 'toHaveBeenCalledWith', 'toHaveLength', 'toContain', 'toMatchObject', 'toThrow', 'toMatchSnapshot',
  'mockReturnValue', 'mockResolvedValue', 'mockImplementation', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll',
  'deepEqual', 'strictEqual', 'notEqual', 'deepStrictEqual', 'notStrictEqual', 'ifError',
]);

/** JavaScript's global objects: `JSON.parse()` and `Math.max()` are theirs, not a workspace method's of that name. */
export const JS_GLOBAL_OBJECTS = new Set([
  'JSON', 'Math', 'Object', 'Array', 'Promise', 'Reflect', 'Proxy', 'console', 'Number', 'String', 'Boolean', 'Date', 'Symbol',
  'BigInt', 'Intl', 'Atomics', 'globalThis', 'window', 'document', 'navigator', 'location', 'history', 'localStorage',
  'sessionStorage', 'performance', 'process', 'Buffer', 'URL', 'Error', 'RegExp', 'Map', 'Set', 'WeakMap', 'WeakSet',
]);

/** TypeScript's primitive types: a value of one has none of a workspace class's methods. */
export const JS_PRIMITIVE_TYPES = new Set(['string', 'number', 'boolean', 'bigint', 'symbol', 'void', 'undefined', 'null', 'never']);

/**
 * Methods of Python's own values (str, bytes, list, dict, set, files): `key.decode()` on a value
 * nothing types is most likely bytes', not a workspace class's `decode`.
 */
export const PY_BUILTIN_METHODS = new Set([
  'capitalize', 'casefold', 'center', 'count', 'encode', 'endswith', 'expandtabs', 'find', 'format', 'format_map', 'index',
  'isalnum', 'isalpha', 'isascii', 'isdecimal', 'isdigit', 'isidentifier', 'islower', 'isnumeric', 'isprintable', 'isspace',
  'istitle', 'isupper', 'join', 'ljust', 'lower', 'lstrip', 'partition', 'removeprefix', 'removesuffix', 'replace', 'rfind',
  'rindex', 'rjust', 'rpartition', 'rsplit', 'rstrip', 'split', 'splitlines', 'startswith', 'strip', 'swapcase', 'title',
  'translate', 'upper', 'zfill', 'decode', 'hex', 'append', 'clear', 'copy', 'extend', 'insert', 'pop', 'remove', 'reverse',
  'sort', 'get', 'items', 'keys', 'values', 'setdefault', 'update', 'popitem', 'add', 'discard', 'difference', 'intersection',
  'union', 'issubset', 'issuperset', 'read', 'readline', 'readlines', 'write', 'writelines', 'close', 'flush', 'seek', 'tell',
]);

/**
 * Whether a variable's name says it holds one of these classes: a word of the name (`gzip_decoder`,
 * `decoder`) is the last word of a class's name (`GZipDecoder`), or the whole of it.
 */
export function namesOneOf(variable: string, classes: Iterable<string>): boolean {
  const words = new Set(variable.toLowerCase().split('_').filter(Boolean));
  const whole = variable.toLowerCase().replace(/_/g, '');
  for (const cls of classes) {
    const lower = cls.toLowerCase();
    const last = lastWord(cls).toLowerCase() || lower;
    if (whole === lower || words.has(last)) return true;
  }
  return false;
}

/** The last camel-case word of a name (`Decoder` of `GZipDecoder`), read from its end. */
function lastWord(name: string): string {
  let i = name.length;
  while (i > 0 && /[a-z0-9]/.test(name[i - 1])) i--;
  if (i > 0 && i < name.length && /[A-Z]/.test(name[i - 1])) i--;
  return name.slice(i);
}
