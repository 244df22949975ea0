import { strict as assert } from 'node:assert';
import { deprecatedName } from '../../../src/vscode/deprecatedMessage';

describe('deprecatedName', () => {
  it('names the API a deprecated diagnostic is about, never its type signature', () => {
    assert.equal(deprecatedName("'toCents' is deprecated."), 'toCents');
    assert.equal(
      deprecatedName(
        "The signature '(id: string, defaultValue?: string): Promise<string>' of 'getFlag' is deprecated.",
      ),
      'getFlag',
    );
    assert.equal(
      deprecatedName('The signature \'(id: "a" | "b"): void\' of \'flags.get\' is deprecated.'),
      'flags.get',
    );
    assert.equal(deprecatedName("'(id: string): Promise<void>' is deprecated."), undefined);
    assert.equal(deprecatedName('This API is obsolete'), undefined);
  });
});
