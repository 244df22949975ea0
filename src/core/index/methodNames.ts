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
