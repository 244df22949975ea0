import { strict as assert } from 'node:assert';
import { acceptedRecord, decisionWorkspace } from './decisionWorkspace';
import { homeOf } from '../../../src/core/sources/decisions/decisionLinker';

/** An app with a view defining `post` and a model, beside a few plain files. */
function app(name: string): Record<string, string> {
  return {
    [`apps/${name}/views.py`]: `class ${name.charAt(0).toUpperCase() + name.slice(1)}View:\n    def post(self, request):\n        return self.save(request.data)\n`,
    [`apps/${name}/models.py`]: `class ${name.charAt(0).toUpperCase() + name.slice(1)}Record:\n    pass\n`,
  };
}

describe('decision records kept beside one app', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(() => {
    const files: Record<string, string> = { ...app('api'), ...app('records'), ...app('badges') };
    for (let i = 0; i < 20; i++) files[`lib/part${i}.py`] = `def part${i}():\n    return ${i}\n`;
    files['docs/decisions/0001-copy-core-data-locally.md'] = acceptedRecord(
      1,
      'Copy core data locally',
      'Programs and courses are copied from the catalog service into local tables.',
    );
    // Each app's folder numbers its records from 0001, as Open edX services do.
    files['apps/api/docs/decisions/0001-post-as-update-or-create.md'] = acceptedRecord(
      1,
      'POST as update or create',
      'A POST to a grade or credential endpoint updates the row when it exists and creates it otherwise.',
    );
    files['apps/badges/docs/decisions/0001-badge-templates.md'] = acceptedRecord(
      1,
      'Badge templates',
      'Badges are issued from templates kept in the database.',
    );
    return files;
  });

  it('links a record of an app to the code of that app by a word of its title', () => {
    assert.deepEqual(
      decisions('apps/api/views.py', 'post', 2).map((i) => i.location.path),
      ['apps/api/docs/decisions/0001-post-as-update-or-create.md'],
    );
  });

  it('never links it by words to the same name in another app', () => {
    assert.deepEqual(
      decisions('apps/records/views.py', 'post', 2).map((i) => i.location.path),
      [],
    );
  });
});

describe('the code folder a decision folder sits in', () => {
  it('ends where the documents begin', () => {
    assert.equal(homeOf('credentials/apps/records/docs/decisions'), 'credentials/apps/records');
    assert.equal(homeOf('docs/adr'), '');
    assert.equal(homeOf('doc/architecture/decisions'), '');
    assert.equal(homeOf('backend/ADRs'), 'backend');
    assert.equal(homeOf('packages/web/docs/adr'), 'packages/web');
    assert.equal(homeOf('decision-records'), '');
  });
});
