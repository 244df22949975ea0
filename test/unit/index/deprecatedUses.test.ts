import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../../src/core/config';
import { CodeIndex } from '../../../src/core/index/codeIndex';
import { Store } from '../../../src/core/store/store';
import { TempRepo } from '../git/repoFixture';

describe('deprecated uses', () => {
  let repo: TempRepo;
  let store: Store;
  let index: CodeIndex;

  before(async () => {
    repo = new TempRepo();
    repo.commit('workspace', {
      'go.mod': 'module example.com/x\n\ngo 1.22\n',
      // Generated protobuf code deprecates its Descriptor methods; the workspace's own types keep one.
      'api/pb/dataplane.pb.go':
        'package pb\n\ntype Dataplane struct{}\n\n// Deprecated: Use Dataplane.ProtoReflect.Descriptor instead.\nfunc (*Dataplane) Descriptor() ([]byte, []int) {\n\treturn nil, nil\n}\n\n// Deprecated: use Name.\nfunc (*Dataplane) OldName() string {\n\treturn ""\n}\n',
      'core/model/meta.go':
        'package model\n\ntype Meta struct{}\n\nfunc (m *Meta) Descriptor() string {\n\treturn "meta"\n}\n',
      'app/run.go':
        // Receivers whose type the code does not say (range variables): only the name is known.
        'package app\n\nimport (\n\tpb "example.com/x/api/pb"\n\t"example.com/x/core/model"\n)\n\nfunc Run(ms []*model.Meta, ds []*pb.Dataplane) {\n\tfor _, d := range ds { _ = d.OldName() }\n\tfor _, m := range ms { _ = m.Descriptor() }\n}\n',
      // A method of a type with the same name as a deprecated one, called through a field or on a
      // library's value: not the deprecated method. On the type itself: that one.
      'cli/command.go':
        'package cli\n\nimport (\n\t"bytes"\n\t"flag"\n)\n\ntype Command struct{ flags *flag.FlagSet }\n\n// Deprecated: use SetOut.\nfunc (c *Command) SetOutput(w *bytes.Buffer) {}\n\nfunc (c *Command) Flags() {\n\tc.flags.SetOutput(nil)\n\tfs := flag.NewFlagSet("x", 0)\n\tfs.SetOutput(nil)\n\tc.SetOutput(nil)\n}\n\nfunc Use(cmd *Command) { cmd.SetOutput(nil) }\n',
      // An old API that calls an older one, or itself: the use is expected there.
      'legacy/parse.py':
        'from typing_extensions import deprecated\n\n@deprecated("use load")\ndef load_str(s):\n    return s\n\n@deprecated("use Model.parse")\ndef parse_raw(s, again=False):\n    if again:\n        return parse_raw(s)\n    return load_str(s)\n\ndef parse(s):\n    return load_str(s)\n',
    });
    store = await Store.open({ stateDir: mkdtempSync(join(tmpdir(), 'pc-deprecated-')) });
    index = new CodeIndex(store, repo.dir, defaultConfig);
    await index.build();
  });

  after(() => {
    store.dispose();
    rmSync(store.stateDir, { recursive: true, force: true });
    repo.dispose();
  });

  it('warns about a method called on an instance only when no current definition shares its name', () => {
    const uses = index
      .deprecatedUsedIn('app/run.go')
      .map((d) => `${d.name}@${d.line} ${d.confidence} -> ${d.definition.path}:${d.definition.line}`);
    assert.deepEqual(
      uses,
      ['OldName@9 likely -> api/pb/dataplane.pb.go:11'],
      'm.Descriptor() may be Meta.Descriptor, which is not deprecated',
    );
  });

  it('warns about a Go method called on its own type, not on a field or a library value with a method of the same name', () => {
    const uses = index.deprecatedUsedIn('cli/command.go').map((d) => `${d.name}@${d.line} ${d.confidence}`);
    assert.deepEqual(
      uses,
      ['SetOutput@17 resolved', 'SetOutput@20 resolved'],
      'c.flags.SetOutput (line 14) and fs.SetOutput (line 16) are flag.FlagSet methods',
    );
  });

  it('does not warn inside a definition that is deprecated itself', () => {
    const uses = index.deprecatedUsedIn('legacy/parse.py').map((d) => `${d.name}@${d.line} ${d.confidence}`);
    assert.deepEqual(
      uses,
      ['load_str@14 resolved'],
      'parse_raw calling itself (line 10) and load_str (line 11) is the old API at work',
    );
  });
});
