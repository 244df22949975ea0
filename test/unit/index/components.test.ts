import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../../src/core/config';
import { CodeIndex, type CallerRef } from '../../../src/core/index/codeIndex';
import { Store } from '../../../src/core/store/store';
import { writeWorkspace } from './fixtureWorkspace';

const show = (refs: CallerRef[]) =>
  refs.map((r) => `${r.path}:${r.line}:${r.column} ${r.confidence}${r.enclosing ? ' in ' + r.enclosing : ''}`);

const FILES: Record<string, string> = {
  'src/ui/switchInput.tsx': [
    "import React, { forwardRef, memo } from 'react';", // 1
    'export type SwitchProps = {', // 2
    '  checked: boolean;', // 3
    '  label?: string;', // 4
    '};', // 5
    'export interface Theme {', // 6
    '  tone: string;', // 7
    '}', // 8
    'export enum Size {', // 9
    '  Small,', // 10
    '  Large,', // 11
    '}', // 12
    'export function SwitchInput(props: SwitchProps) {', // 13
    '  const label = props.label ?? "";', // 14
    '  return <label>{label}</label>;', // 15
    '}', // 16
    'export const Badge = ({ text }: { text: string }) => (', // 17
    '  <span>{text}</span>', // 18
    ');', // 19
    'export const Field = forwardRef<HTMLInputElement, SwitchProps>((p, ref) => <input ref={ref} />);', // 20
    'export const Row = React.memo(function Row() {', // 21
    '  return null;', // 22
    '});', // 23
    'export class Legacy extends React.Component<SwitchProps> {', // 24
    '  render() {', // 25
    '    return <div />;', // 26
    '  }', // 27
    '}', // 28
    'export function Helper() {', // 29
    '  return 42;', // 30
    '}', // 31
    'export function renderRow() {', // 32
    '  return <tr />;', // 33
    '}', // 34
    'export function GET() {', // 35
    '  return new ImageResponse(<div />);', // 36
    '}', // 37
    '',
  ].join('\n'),
  'src/ui/card.tsx': ['export default function Card() {', '  return <section />;', '}', ''].join('\n'),
  'src/ui/panel.tsx': [
    "import { memo } from 'react';",
    'function Panel() {',
    '  return <aside />;',
    '}',
    'export default memo(Panel);',
    '',
  ].join('\n'),
  'src/ui/index.ts': [
    "export { SwitchInput } from './switchInput';",
    "export * from './switchInput';",
    "export { default as Card } from './card';",
    '',
  ].join('\n'),
  'src/app.tsx': [
    "import { SwitchInput, Badge as Tag, Legacy } from './ui/switchInput';", // 1
    "import * as ui from './ui/switchInput';", // 2
    "import Card from './ui/card';", // 3
    "import Panel from './ui/panel';", // 4
    'export function App() {', // 5
    '  return (', // 6
    '    <div>', // 7
    '      <SwitchInput checked />', // 8
    '      <SwitchInput checked={false}>', // 9
    '        <Tag text="x" />', // 10
    '      </SwitchInput>', // 11
    '      <ui.SwitchInput checked />', // 12
    '      <Card />', // 13
    '      <Panel />', // 14
    '      <Legacy checked />', // 15
    '    </div>', // 16
    '  );', // 17
    '}', // 18
    '',
  ].join('\n'),
  'src/viaBarrel.tsx': [
    "import { SwitchInput, Card as Tile } from './ui';",
    'export const Screen = () => <><SwitchInput checked /><Tile /></>;',
    '',
  ].join('\n'),
  'src/other.tsx': [
    'function SwitchInput() {',
    '  return <b />;',
    '}',
    'export const Local = () => <SwitchInput />;',
    '',
  ].join('\n'),
  'go/types.go': [
    'package shapes',
    '',
    'type Celsius float64',
    '',
    'type Alias = Celsius',
    '',
    'type Point struct{}',
    '',
  ].join('\n'),
  'rust/src/lib.rs': ['pub enum Shape {', '    Circle,', '}', '', 'pub type Meters = f64;', ''].join('\n'),
  'java/Color.java': ['public enum Color {', '  RED;', '  public String lower() { return "red"; }', '}', ''].join('\n'),
  'cs/Tone.cs': ['namespace Acme {', '  public enum Tone {', '    Warm,', '  }', '}', ''].join('\n'),
};

describe('types and React components in the code index', () => {
  let root: string;
  let store: Store;
  let index: CodeIndex;

  before(async () => {
    root = writeWorkspace(FILES);
    store = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-index-state-')) });
    index = new CodeIndex(store, root, defaultConfig);
    await index.build();
  });

  after(() => {
    store.dispose();
    rmSync(store.stateDir, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('names the type alias, interface or enum around the cursor', () => {
    const at = (line: number) => {
      const s = index.symbolAt('src/ui/switchInput.tsx', line);
      return s && `${s.kind} ${s.name} ${s.startLine}-${s.endLine}${s.exported ? ' exported' : ''}`;
    };
    assert.equal(at(3), 'type SwitchProps 2-5 exported');
    assert.equal(at(7), 'interface Theme 6-8 exported');
    assert.equal(at(10), 'enum Size 9-12 exported');
  });

  it('knows React components: JSX-rendering PascalCase functions and arrows, memo/forwardRef consts, React.Component classes', () => {
    const kinds = index
      .symbolsIn('src/ui/switchInput.tsx')
      .map((s) => `${s.kind} ${s.container ? s.container + '.' : ''}${s.name}`);
    assert.deepEqual(kinds, [
      'type SwitchProps',
      'interface Theme',
      'enum Size',
      'component SwitchInput',
      'component Badge',
      'component Field',
      'component Row',
      'component Legacy',
      'method Legacy.render',
      'function Helper', // PascalCase but renders no JSX
      'function renderRow', // renders JSX but is not PascalCase
      'function GET', // all capitals: a route handler
    ]);
    assert.equal(index.symbolAt('src/ui/switchInput.tsx', 14)?.name, 'SwitchInput');
    assert.deepEqual(
      index.symbolsIn('src/ui/card.tsx').map((s) => [s.kind, s.name, s.exported]),
      [['component', 'Card', true]],
    );
    assert.deepEqual(
      index.symbolsIn('src/ui/panel.tsx').map((s) => [s.kind, s.name]),
      [['component', 'Panel']],
    );
  });

  it('counts self-closing and paired JSX elements as callers, closing tags once, through named, aliased and namespace imports', () => {
    assert.deepEqual(show(index.callers({ name: 'SwitchInput', path: 'src/ui/switchInput.tsx' })), [
      'src/app.tsx:8:8 resolved in App',
      'src/app.tsx:9:8 resolved in App',
      'src/app.tsx:12:11 resolved in App', // <ui.SwitchInput/>: import * as ui
      'src/viaBarrel.tsx:2:32 resolved in Screen', // through the barrel's re-export
    ]);
    assert.deepEqual(
      show(index.callers({ name: 'Badge', path: 'src/ui/switchInput.tsx' })),
      ['src/app.tsx:10:10 resolved in App'],
      'import { Badge as Tag }',
    );
    assert.deepEqual(show(index.callers({ name: 'Legacy', path: 'src/ui/switchInput.tsx' })), [
      'src/app.tsx:15:8 resolved in App',
    ]);
  });

  it('follows default imports of components, also through a barrel and a memo() around the default export', () => {
    assert.deepEqual(show(index.callers({ name: 'Card', path: 'src/ui/card.tsx' })), [
      'src/app.tsx:13:8 resolved in App',
      'src/viaBarrel.tsx:2:55 resolved in Screen',
    ]);
    assert.deepEqual(show(index.callers({ name: 'Panel', path: 'src/ui/panel.tsx' })), [
      'src/app.tsx:14:8 resolved in App',
    ]);
  });

  it('keeps a same-named local component apart, and records no call for HTML elements', () => {
    assert.deepEqual(show(index.callers({ name: 'SwitchInput', path: 'src/other.tsx' })), [
      'src/other.tsx:4:29 resolved in Local',
    ]);
    assert.deepEqual(index.callers({ name: 'div' }), []);
    assert.deepEqual(index.callers({ name: 'label' }), []);
  });

  it('gives other languages their enums and type aliases', () => {
    const kinds = (p: string) =>
      index.symbolsIn(p).map((s) => `${s.kind} ${s.container ? s.container + '.' : ''}${s.name}`);
    assert.deepEqual(kinds('go/types.go'), ['type Celsius', 'type Alias', 'class Point']);
    assert.deepEqual(kinds('rust/src/lib.rs'), ['enum Shape', 'type Meters']);
    assert.deepEqual(kinds('java/Color.java'), ['enum Color', 'method Color.lower']);
    assert.deepEqual(kinds('cs/Tone.cs'), ['enum Tone']);
    assert.equal(index.symbolAt('rust/src/lib.rs', 2)?.name, 'Shape');
  });
});
