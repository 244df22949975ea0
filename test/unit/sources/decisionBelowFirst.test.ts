import { strict as assert } from 'node:assert';
import { acceptedRecord, decisionWorkspace } from './decisionWorkspace';

const record = acceptedRecord;

/** Thirty small modules besides `files`, so that the workspace counts how rare a word is. */
function withRoomPlan(files: Record<string, string>): Record<string, string> {
  for (let i = 0; i < 30; i++)
    files[`rooms/part${i}.py`] = `def part${i}(n):\n    """Part ${i} of the room plan."""\n    return n * ${i}\n`;
  return files;
}

/**
 * A Python service whose booking module is governed by one record. Its imports reach modules named
 * like the titles of other records: `labels` of a Kubernetes package and `postgres` of Django's.
 */
function bookingService(): Record<string, string> {
  const files: Record<string, string> = {
    'docs/adr/0001-bookings-are-never-deleted.md': record(
      1,
      'Bookings',
      'A booking is cancelled, never deleted, so that the history of a room stays whole. Changes to a booking are applied and merged.',
    ),
    'docs/adr/0002-structuring-resource-labels.md': record(
      2,
      'Structuring resource labels',
      'Every resource we create carries the labels app, team and tier; selectors use them.',
    ),
    'docs/adr/0003-postgres.md': record(3, 'Postgres', 'We chose it.'),
    'docs/adr/0004-update-the-data-by-migrations.md': record(
      4,
      'Update the live data by migrations',
      'Changes to live data are data migrations, reviewed like code.',
    ),
    'docs/adr/0005-use-sse-for-real-time-updates.md': record(
      5,
      'Use SSE for real-time updates',
      'The browser follows a job through server-sent events.',
    ),
    'docs/adr/0006-dual-sse-architecture.md': record(
      6,
      'Dual SSE architecture',
      'One stream per job and one for the whole board, both from the same manager.',
    ),
    'docs/adr/0007-service-boundaries.md': record(
      7,
      'Service boundaries and table ownership',
      'Each service owns its tables; a service calls another only through its public functions.',
    ),
    'docs/adr/0009-managing-constraints.md': record(
      9,
      'Managing constraints',
      'Constraints live in the database; the application checks nothing twice.',
    ),
    'docs/adr/0008-workers-run-on-their-own-nodes.md': record(
      8,
      'Workers run on their own nodes',
      'Each background worker runs on a node of its own, so that a slow job never starves the web servers.',
    ),
    'booking/working_days.py': [
      'def add_working_days(start, days):',
      '    """The date that many working days after start."""',
      '    return start + days',
      '',
    ].join('\n'),
    'booking/booking_service.py': [
      'def cancel_booking(booking):',
      '    """Cancels a booking and keeps its history."""',
      '    return booking',
      '',
    ].join('\n'),
    'backend/app/events/sse_manager.py': 'def stream(job):\n    return iter([job])\n',
    'booking/bookings.py': [
      'from kubernetes.watch.labels import merge_labels',
      'from django.contrib.postgres.constraints import ExclusionConstraint',
      '',
      '',
      'def update_booking(booking, changes):',
      '    """Applies the changes to a booking."""',
      '    return merge_labels(booking, changes)',
      '',
    ].join('\n'),
    'backend/app/routers/job_router.py': [
      'from app.events.sse_manager import stream',
      '',
      '',
      'def job_events(job):',
      '    """Streams the events of a job to the browser as they come."""',
      '    return stream(job)',
      '',
    ].join('\n'),
  };
  return withRoomPlan(files);
}

describe('records below the first one', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(bookingService);

  it('shows no record below another that a module inside an imported package is named like (`labels`)', () => {
    const shown = decisions('booking/bookings.py', 'update_booking', 5).map((i) => `${i.location.path}: ${i.reason}`);
    assert.ok(
      shown.some((s) => s.startsWith('docs/adr/0001-bookings-are-never-deleted.md')),
      JSON.stringify(shown),
    );
    assert.ok(!shown.some((s) => s.startsWith('docs/adr/0002-structuring-resource-labels.md')), JSON.stringify(shown));
  });

  it('keeps a record titled by the module alone (`Postgres`)', () => {
    const shown = decisions('booking/bookings.py', 'update_booking', 5).map((i) => `${i.location.path}: ${i.reason}`);
    assert.ok(
      shown.some((s) => s.startsWith('docs/adr/0003-postgres.md') && /imports django\.contrib\.postgres/.test(s)),
      JSON.stringify(shown),
    );
  });

  it('shows no record below another titled by more than the module the file imports ("Managing constraints")', () => {
    const shown = decisions('booking/bookings.py').map((i) => `${i.location.path}: ${i.reason}`);
    assert.ok(
      shown.some((s) => s.startsWith('docs/adr/0001-bookings-are-never-deleted.md')),
      JSON.stringify(shown),
    );
    assert.ok(!shown.some((s) => s.startsWith('docs/adr/0009-managing-constraints.md')), JSON.stringify(shown));
  });

  it('links no record by the verb of its title (`Update the live data`)', () => {
    const shown = decisions('booking/bookings.py', 'update_booking', 5).map((i) => i.location.path);
    assert.ok(!shown.includes('docs/adr/0004-update-the-data-by-migrations.md'), JSON.stringify(shown));
  });

  it('shows two records about the module the file imports (`sse_manager`)', () => {
    const shown = decisions('backend/app/routers/job_router.py', 'job_events', 4).map((i) => i.location.path);
    assert.deepEqual(shown.sort(), [
      'docs/adr/0005-use-sse-for-real-time-updates.md',
      'docs/adr/0006-dual-sse-architecture.md',
    ]);
  });

  it('links no record by the one who does what a file is named after (`working` → "Workers")', () => {
    const shown = decisions('booking/working_days.py', 'add_working_days', 1).map(
      (i) => `${i.location.path}: ${i.reason}`,
    );
    assert.deepEqual(shown, []);
  });

  it('shows no record below another by a word every codebase names its parts with (`service`)', () => {
    const shown = decisions('booking/booking_service.py').map((i) => `${i.location.path}: ${i.reason}`);
    assert.ok(
      shown.some((s) => s.startsWith('docs/adr/0001-bookings-are-never-deleted.md')),
      JSON.stringify(shown),
    );
    assert.ok(!shown.some((s) => s.startsWith('docs/adr/0007-service-boundaries.md')), JSON.stringify(shown));
  });
});

/** A Kotlin controller (a language the code index does not read) importing a module of Spring. */
function searchService(): Record<string, string> {
  const files: Record<string, string> = {
    'docs/adr/0010-search-results-are-paged.md': record(
      10,
      'Search results are paged',
      'A search answers one page at a time, fifty results at most.',
    ),
    'docs/adr/0011-format-of-dates-in-the-api.md': record(
      11,
      'Format of dates in the API',
      'Dates travel as ISO 8601 strings with an offset.',
    ),
    'booking/SearchController.kt': [
      'package uk.gov.rooms.booking',
      '',
      'import org.springframework.format.annotation.DateTimeFormat',
      '',
      'class SearchController {',
      '  fun search(from: String) = listOf(from)',
      '}',
      '',
    ].join('\n'),
  };
  return withRoomPlan(files);
}

describe("records below the first one, by a vendor's module", function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(searchService);

  it('shows no record below another by a module of a vendor the file imports (`org.springframework.format`)', () => {
    const shown = decisions('booking/SearchController.kt').map((i) => `${i.location.path}: ${i.reason}`);
    assert.ok(shown[0]?.startsWith('docs/adr/0010-search-results-are-paged.md'), JSON.stringify(shown));
    assert.ok(!shown.some((s) => s.startsWith('docs/adr/0011-format-of-dates-in-the-api.md')), JSON.stringify(shown));
  });
});

/** A template in a folder named like a topic that several records are about. */
function policyTemplates(): Record<string, string> {
  const files: Record<string, string> = {
    'docs/adr/0001-refactoring-of-the-access-policy-models.md': record(
      1,
      'Refactoring of the access policy models',
      'Each policy type becomes a model of its own.',
    ),
    'docs/adr/0002-access-policy-crud-api.md': record(
      2,
      'Access policy CRUD API',
      'Policies are created, read, updated and deleted through one REST resource.',
    ),
    'app/templates/access_policy/deposit_funds.html': '<form method="post">{{ form }}<button>Deposit</button></form>\n',
  };
  return withRoomPlan(files);
}

describe('records under the folder of a record above', function () {
  this.timeout(60000);
  const decisions = decisionWorkspace(policyTemplates);

  it('shows one record by the folder a file lives in (`templates/access_policy/`), not each record of its topic', () => {
    const shown = decisions('app/templates/access_policy/deposit_funds.html').map(
      (i) => `${i.location.path}: ${i.reason}`,
    );
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0], /access_policy/);
  });
});
