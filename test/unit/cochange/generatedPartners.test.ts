import { strict as assert } from 'node:assert';
import type { ContextSuggestion } from '../../../src/core/types';
import { openRefreshed, type RepoService } from '../api/serviceFixture';
import { TempRepo } from '../git/repoFixture';

/**
 * A migration is written from the models it migrates: a Django app's `models.py` and a Rails
 * migration's `db/schema.rb` move with it, though the migration never imports them and one commit
 * created them all. The other files of that commit stay out.
 */
describe('co-change partners a framework generates', function () {
  this.timeout(60000);
  let ws: RepoService;

  before(async () => {
    const repo = new TempRepo(true, 'pc-generated-', Math.floor(Date.now() / 1000) - 15 * 86400);
    repo.commit('Add the bookings app', {
      'bookings/models.py':
        'from django.db import models\n\n\nclass Booking(models.Model):\n    room = models.CharField(max_length=20)\n',
      'bookings/admin.py':
        'from django.contrib import admin\n\nfrom .models import Booking\n\nadmin.site.register(Booking)\n',
      'bookings/views.py': 'def index(request):\n    return None\n',
      'bookings/migrations/__init__.py': '',
      'bookings/migrations/0001_initial.py':
        'from django.db import migrations, models\n\n\nclass Migration(migrations.Migration):\n    initial = True\n    operations = []\n',
    });
    repo.commit('Create users', {
      'db/migrate/20240101000000_create_users.rb':
        'class CreateUsers < ActiveRecord::Migration[7.1]\n  def change\n    create_table :users\n  end\nend\n',
      'db/schema.rb': 'ActiveRecord::Schema[7.1].define(version: 2024_01_01_000000) do\n  create_table "users"\nend\n',
      'app/models/user.rb': 'class User < ApplicationRecord\nend\n',
      'config/routes.rb': 'Rails.application.routes.draw do\nend\n',
    });
    for (let i = 1; i <= 2; i++)
      repo.commit(`Restyle ${i}`, {
        'bookings/views.py': `def index(request):\n    return ${i}\n`,
        'config/routes.rb': `Rails.application.routes.draw do\n  # ${i}\nend\n`,
      });
    ws = await openRefreshed(repo);
  });

  after(() => ws.dispose());

  const partners = (s: ContextSuggestion) => s.items.filter((i) => i.type === 'cochange').map((i) => i.location.path);

  it("shows a Django migration's models, not the other files of its commit", async () => {
    const s = await ws.service.suggestions.suggestForPath({ file: 'bookings/migrations/0001_initial.py' });
    const paths = partners(s);
    assert.ok(paths.includes('bookings/models.py'), JSON.stringify(paths));
    assert.ok(!paths.includes('bookings/admin.py') && !paths.includes('bookings/views.py'), JSON.stringify(paths));
  });

  it('does not show every migration on the models or the package marker of the migrations', async () => {
    const s = await ws.service.suggestions.suggestForPath({ file: 'bookings/models.py' });
    const paths = partners(s);
    assert.ok(!paths.some((p) => p.includes('/migrations/')), JSON.stringify(paths));
  });

  it("shows a Rails migration's schema, not the other files of its commit", async () => {
    const s = await ws.service.suggestions.suggestForPath({ file: 'db/migrate/20240101000000_create_users.rb' });
    const paths = partners(s);
    assert.ok(paths.includes('db/schema.rb'), JSON.stringify(paths));
    assert.ok(!paths.includes('config/routes.rb') && !paths.includes('app/models/user.rb'), JSON.stringify(paths));
  });
});
