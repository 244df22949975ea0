import { strict as assert } from 'node:assert';
import { callersIn, indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

// A VS Code extension names its classes after the platform's interfaces (`FileSystemProvider implements
// vscode.FileSystemProvider`, `FileStat implements vscode.FileStat`), and calls the platform's and
// Node's objects by the same method names as its own. None of those is a call of the workspace's method.
describe('TypeScript callers: library types and other classes are not the method’s', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    ws = await indexWorkspace({
      'package.json': JSON.stringify({ name: 'samples', private: true, workspaces: ['packages/*'] }),
      'tree/src/fileExplorer.ts': [
        "import * as vscode from 'vscode';",
        'export class FileSystemProvider implements vscode.FileSystemProvider {',
        '  writeFile(uri: string): void { this._writeFile(uri); }',
        '  _writeFile(uri: string): void {}',
        '}',
        '',
      ].join('\n'),
      'tree/src/entry.ts': ['export class Entry {', '  isFile(): boolean { return true; }', '}', ''].join('\n'),
      'tree/src/use.ts': [
        "import { Entry } from './entry';",
        "import * as fs from 'fs';",
        "import { Stats } from 'node:fs';",
        'export function kinds(entry: Entry, stat: fs.Stats, other: Stats) {',
        '  return [entry.isFile(), stat.isFile(), other.isFile()];',
        '}',
        'export class Holder {',
        '  constructor(private readonly stat: fs.Stats, private readonly entry: Entry) {}',
        '  kinds() { return [this.stat.isFile(), this.entry.isFile()]; }',
        '}',
        '',
      ].join('\n'),
      // Another extension in the same repository: its own provider, its own `_writeFile`.
      'nodefs/src/extension.ts': [
        "import * as vscode from 'vscode';",
        'export class DateiFileSystemProvider implements vscode.FileSystemProvider {',
        '  writeFile(uri: string): void { this._writeFile(uri); }',
        '  _writeFile(uri: string): void {}',
        '}',
        '',
      ].join('\n'),
      'vim/src/mappings.ts': [
        'export class Mappings {',
        '  static findMotion(input: string) { return input; }',
        '}',
        '',
      ].join('\n'),
      'vim/src/controller.ts': [
        "import { Mappings } from './mappings';",
        'export class Controller {',
        '  findMotion(input: string) { return Mappings.findMotion(input); }',
        '}',
        '',
      ].join('\n'),
      'vim/src/run.ts': [
        "import { Controller } from './controller';",
        "import * as vscode from 'vscode';",
        'export function run(c: Controller) {',
        "  vscode.commands.findMotion('x');",
        "  return c.findMotion('x');",
        '}',
        '',
      ].join('\n'),
      // Classes reached through an index that re-exports them, and through a namespace import.
      'vim/src/index.ts': "export * from './mappings';\n",
      'vim/src/keys.ts': [
        "import { Mappings } from './index';",
        "import * as all from './index';",
        "import { Controller } from './controller';",
        'export function keys(c: Controller) {',
        "  Mappings.findMotion('a');",
        "  all.Mappings.findMotion('b');",
        "  return c.findMotion('c');",
        '}',
        '',
      ].join('\n'),
      // A value named like an interface (`const Failure: Maker`) is no class, whatever another file declares.
      'lib/core.ts': [
        'export interface Maker {',
        '  init(inst: unknown): void;',
        '}',
        'export function maker(): Maker { return { init() {} }; }',
        '',
      ].join('\n'),
      'lib/errors.ts': [
        "import { maker, type Maker } from './core';",
        'export interface Failure { message: string }',
        'export const Failure: Maker = maker();',
        '',
      ].join('\n'),
      'lib/use.ts': [
        "import type { Maker } from './core';",
        "import { Failure } from './errors';",
        'export function fail(x: unknown, m: Maker) {',
        '  Failure.init(x);',
        '  m.init(x);',
        '}',
        '',
      ].join('\n'),
      'bench/other.ts': 'export class Failure {\n  static init() {}\n}\n',
      // A base from a package of the workspace itself is the workspace's class.
      'packages/core/package.json': JSON.stringify({ name: '@acme/core', main: 'src/index.ts' }),
      'packages/core/src/index.ts': ['export abstract class Task {', '  abstract run(): void;', '}', ''].join('\n'),
      'packages/app/src/job.ts': [
        "import { Task } from '@acme/core';",
        "import * as core from '@acme/core';",
        'export class Job extends Task {',
        '  run(): void {}',
        '}',
        'export class Other extends core.Task {',
        '  run(): void {}',
        '}',
        'export function start(t: Task) { t.run(); }',
        '',
      ].join('\n'),
    });
  });

  after(() => ws.dispose());

  const callers = (path: string, name: string, line: number) => callersIn(ws, path, name, line);

  it('does not join a class to another that implements a library interface of its name', () => {
    assert.deepEqual(callers('tree/src/fileExplorer.ts', '_writeFile', 4), ['tree/src/fileExplorer.ts:3 resolved']);
    assert.deepEqual(callers('nodefs/src/extension.ts', '_writeFile', 4), ['nodefs/src/extension.ts:3 resolved']);
  });

  it('leaves out calls on values of a library type, however the file names it', () => {
    assert.deepEqual(callers('tree/src/entry.ts', 'isFile', 2), [
      'tree/src/use.ts:5 resolved',
      'tree/src/use.ts:9 resolved',
    ]);
  });

  it('leaves out a static call on another class, reached directly, through re-exports or a namespace, and a call on a library object', () => {
    assert.deepEqual(callers('vim/src/controller.ts', 'findMotion', 3), [
      'vim/src/keys.ts:7 resolved',
      'vim/src/run.ts:5 resolved',
    ]);
    assert.deepEqual(callers('vim/src/mappings.ts', 'findMotion', 2), [
      'vim/src/controller.ts:3 resolved',
      'vim/src/keys.ts:5 resolved',
      'vim/src/keys.ts:6 resolved',
    ]);
  });

  it('keeps a call on a value named like an interface, whatever another file declares of that name', () => {
    assert.deepEqual(callers('lib/core.ts', 'init', 2), ['lib/use.ts:4 likely', 'lib/use.ts:5 resolved']);
  });

  it('keeps a base that a package of the workspace exports, however the file names it', () => {
    assert.deepEqual(callers('packages/app/src/job.ts', 'run', 4), ['packages/app/src/job.ts:9 likely']);
    assert.deepEqual(callers('packages/app/src/job.ts', 'run', 7), ['packages/app/src/job.ts:9 likely']);
  });
});
