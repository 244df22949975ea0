import { strict as assert } from 'node:assert';
import { fileQuery, packageTerms } from '../../../src/core/sources/decisions/fileTerms';
import { termsOf } from '../../../src/core/sources/docs/textTerms';

describe('the words a file is linked to records by', () => {
  it('drops module hosts, owners and major versions from imports', () => {
    assert.deepEqual(packageTerms('github.com/envoyproxy/go-control-plane/envoy/config/listener/v3'), ['control', 'plan', 'envoy', 'config', 'listener'], 'stemmed, without go, the host, the owner or v3');
    assert.deepEqual(packageTerms('k8s.io/api/admission/v1beta1'), ['admission']);
    assert.deepEqual(packageTerms('@emotion/react'), ['emotion', 'react']);
  });

  it('keeps two-letter words from names and folders, and from code only when they name a topic', () => {
    const q = fileQuery({
      path: 'src/db/ui/Proactor.cs',
      text: 'var ok = Run(); catch (Exception ex) { Log(ex); } // Blocking IO on the pump; format dd/MM mm\n',
      vocabulary: { definitions: ['sn', 'Run'], calls: ['Log'], packages: [] },
    });
    const all = new Set([...q.terms.keys(), ...q.textCounts.keys()]);
    for (const w of ['db', 'ui', 'io', 'proactor']) assert.ok(all.has(w), w);
    for (const w of ['ok', 'ex', 'mm', 'sn']) assert.ok(!all.has(w), w);
  });

  it('leaves out function words of records kept in other languages', () => {
    const fr = termsOf('Le service est lent pour les jeunes');
    assert.ok(fr.includes('lent') && !fr.some((t) => ['est', 'pour', 'les'].includes(t)), fr.join(' '));
    assert.ok(!termsOf('Die Queue ist nicht schnell und das ist gut').some((t) => ['ist', 'nicht', 'und'].includes(t)));
  });
});

