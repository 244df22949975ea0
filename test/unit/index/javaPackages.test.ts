import { strict as assert } from 'node:assert';
import { samePackageElsewhere } from '../../../src/core/index/resolve';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

describe('Java packages across source sets', () => {
  let ws: IndexedWorkspace;

  before(async () => {
    const files: Record<string, string> = {
      'client/src/main/java/com/acme/jmx/JmxClient.java':
        'package com.acme.jmx;\n\npublic class JmxClient {\n  public JmxClient(String url) {}\n  public void connect() {}\n}\n',
      // Same package, test source set: no import needed.
      'client/src/test/java/com/acme/jmx/JmxClientTest.java':
        'package com.acme.jmx;\n\npublic class JmxClientTest {\n  public void testConnect() {\n    JmxClient c = new JmxClient("x");\n    c.connect();\n  }\n}\n',
      // Another module's package of the same name is not this one.
      'server/src/test/java/com/acme/jmx/JmxClient2Test.java':
        'package com.acme.jmx;\n\npublic class JmxClient2Test {\n  public void testOther() {\n    JmxClient c = new JmxClient("y");\n  }\n}\n',
    };
    ws = await indexWorkspace(files);
  });

  after(() => ws.dispose());

  it("resolves a test calling a class of its package from the module's main source set", () => {
    const callers = ws.index
      .callers({ name: 'JmxClient', path: 'client/src/main/java/com/acme/jmx/JmxClient.java' })
      .map((r) => `${r.path}:${r.line} ${r.confidence}`);
    assert.ok(callers.includes('client/src/test/java/com/acme/jmx/JmxClientTest.java:5 resolved'), callers.join(', '));
    assert.ok(
      !callers.some((c) => c.startsWith('server/') && c.endsWith('resolved')),
      'another module is not the same package',
    );
  });

  it('finds the package folder in each source set of the same module only', () => {
    const dirs = [
      'a/src/main/java/com/x',
      'a/src/test/java/com/x',
      'a/src/testFixtures/java/com/x',
      'b/src/test/java/com/x',
      'a/src/test/java/org/com/x',
    ];
    const files = { dirsEndingWith: (suffix: string) => dirs.filter((d) => d.endsWith('/' + suffix)) };
    assert.deepEqual(samePackageElsewhere('a/src/main/java/com/x', files), [
      'a/src/test/java/com/x',
      'a/src/testFixtures/java/com/x',
    ]);
    assert.deepEqual(samePackageElsewhere('lib/com/x', files), [], 'not a Maven or Gradle layout');
  });
});
