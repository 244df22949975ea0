import { strict as assert } from 'node:assert';
import { fileQuery, importedPackagesOf, packageTerms } from '../../../src/core/sources/decisions/fileTerms';
import { isStandardLibrary } from '../../../src/core/sources/decisions/standardLibrary';
import { compoundTerms, splitWords, termsOf } from '../../../src/core/sources/docs/textTerms';

describe('the words a file is linked to records by', () => {
  it('reads the plural of an acronym as the acronym, and keeps the split of other capital runs', () => {
    assert.deepEqual(splitWords('Use ADRs for getAPIs and URLsToFetch'), [
      'Use',
      'ADR',
      'for',
      'get',
      'API',
      'and',
      'URL',
      'To',
      'Fetch',
    ]);
    assert.deepEqual(splitWords('HTTPServer_v2 IDs Is'), ['HTTP', 'Server', 'v2', 'ID', 'Is']);
  });

  it('also reads a mixed-case brand name as one word', () => {
    assert.deepEqual(compoundTerms('Node.js with NestJS, GraphQL, PostgreSQL; REST API, ok, Go'), [
      'nestj',
      'graphql',
      'postgresql',
    ]);
    assert.deepEqual(compoundTerms('useSegments and ChangeMessageVisibility'), []);
    assert.deepEqual(compoundTerms('x'.repeat(30) + 'Y'), []);
  });

  it('drops module hosts, owners and major versions from imports', () => {
    assert.deepEqual(
      packageTerms('github.com/envoyproxy/go-control-plane/envoy/config/listener/v3'),
      ['control', 'plan', 'envoy', 'config', 'listener'],
      'stemmed, without go, the host, the owner or v3',
    );
    assert.deepEqual(packageTerms('k8s.io/api/admission/v1beta1'), ['admission']);
    assert.ok(!packageTerms('ibc_proto::ibc::apps::fee::v1').includes('v1'), "a Rust module's version");
    assert.ok(packageTerms('ibc_proto::ibc::apps::fee::v1').includes('fee'));
    assert.deepEqual(packageTerms('google.golang.org/grpc'), ['grpc'], 'a host of its own');
    // Where a package is hosted is not what it is: Caffeine, not GitHub.
    assert.ok(!packageTerms('com.github.benmanes.caffeine.cache.Cache').includes('github'));
    assert.ok(packageTerms('com.github.benmanes.caffeine.cache.Cache').includes('caffein'));
    assert.deepEqual(packageTerms('@emotion/react'), ['emotion', 'react']);
  });

  it("takes no package from the workspace's own files or the platform's library", () => {
    assert.deepEqual(packageTerms('../components/Markdown/hljs.css'), []);
    assert.deepEqual(packageTerms('./theme'), []);
    assert.deepEqual(packageTerms('.models'), []);
    assert.deepEqual(packageTerms('crate::config::types::ics20_field_size_limit'), []);
    assert.deepEqual(packageTerms('super'), []);
    assert.deepEqual(packageTerms('self::chain'), []);
    assert.deepEqual(packageTerms('selfish'), ['selfish']);
    assert.deepEqual(packageTerms('System.Text.Json'), []);
    assert.deepEqual(packageTerms('java.util.concurrent'), []);
    // A library the project chose still names itself, dotted or not.
    assert.deepEqual(packageTerms('Newtonsoft.Json'), ['newtonsoft', 'json']);
    assert.deepEqual(packageTerms('serialize-error'), ['serializ', 'error']);
  });

  it("reads Rust's own crates as its standard library, and any other crate as a choice", () => {
    assert.ok(isStandardLibrary('alloc::collections', 'crates/relayer/src/config.rs'));
    assert.ok(isStandardLibrary('std::sync::Arc', 'src/main.rs'));
    assert.ok(isStandardLibrary('core::fmt', 'src/lib.rs'));
    assert.ok(!isStandardLibrary('console', 'src/main.rs'));
    assert.ok(!isStandardLibrary('tokio::sync', 'src/main.rs'));
    assert.ok(!isStandardLibrary('alloc', 'src/app.ts'), 'an npm package named alloc is a choice');
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
    // Two-letter ones too, in prose and in names: `vérifierSiLeCSRFEstValide` is about CSRF, not "si" and "le".
    const name = termsOf('vérifierSiLeCSRFEstValide, si le contexte est valide');
    assert.ok(name.includes('csrf') && !name.some((t) => ['si', 'le'].includes(t)), name.join(' '));
    const nl = termsOf('De cache wordt bij het starten gevuld');
    assert.ok(nl.includes('cach') || nl.includes('cache'), nl.join(' '));
    assert.ok(!nl.some((t) => ['wordt', 'bij'].includes(t)), nl.join(' '));
  });

  it('reads the imports of a language the code index does not read', () => {
    assert.deepEqual(
      importedPackagesOf(
        'package at.mocode.network\n\nimport io.ktor.client.*\nimport org.koin.dsl.module\nimport com.google.gson.Gson\nimport Alamofire\nimport kotlin.math.max as maximum\nimport CdxIcon from "./Icon.vue";\nimport { ref } from "vue"\nval x = 1 // import not.this.one\n',
      ),
      [
        // `client` of `io.ktor.client` names no product: every vendor has one.
        ['ktor', 1],
        ['koin', 1],
        // The part after the vendor is one of its modules, named with the vendor.
        ['koin.dsl', 0.5],
        ['google', 1],
        ['google.gson', 0.5],
        ['Alamofire', 1],
      ],
    );
    assert.deepEqual(
      importedPackagesOf('import org.jetbrains.compose.ui;\nimport kotlin.math.max as maximum\n'),
      [
        ['jetbrains', 1],
        ['jetbrains.compose', 0.5],
      ],
      'a language namespace (`kotlin.math`) is not a package',
    );
    // Scala: selectors in braces, `_` wildcards, and packages that are not reverse domains.
    assert.deepEqual(
      importedPackagesOf(
        'package controllers\n\nimport play.api.mvc.{ Action, Request }\nimport akka.actor._\nimport scala.concurrent.Future\nimport upickle.default.write\nimport java.util.UUID\nimport org.apache.pekko.actor.ActorRef\n',
      ),
      [
        ['play', 0.7],
        ['akka', 0.7],
        ['upickle', 0.7],
        ['apache', 1],
        ['apache.pekko', 0.5],
      ],
    );
    // Jackson 3 lives under the reverse domain `tools.jackson`.
    assert.deepEqual(importedPackagesOf('import tools.jackson.databind.ObjectMapper\n'), [
      ['jackson', 1],
      ['jackson.databind', 0.5],
    ]);
    const q = fileQuery({
      path: 'app/src/main/kotlin/NetworkModule.kt',
      text: 'import org.koin.dsl.module\n\nval networkModule = module {}\n',
    });
    assert.equal(q.sources.get('koin'), 'import');
    const indexed = fileQuery({
      path: 'src/a.ts',
      text: 'import org.koin.dsl.module\n',
      vocabulary: { definitions: [], calls: [], packages: [] },
    });
    assert.equal(indexed.sources.get('koin'), undefined, 'the code index speaks for the files it reads');
    const script = fileQuery({ path: 'docker/entrypoint', text: 'python - <<EOF\nimport psycopg\nEOF\n' });
    assert.deepEqual(
      [script.sources.get('psycopg'), script.textCounts.get('psycopg')],
      [undefined, 1],
      'a script embedding another language keeps its words as text',
    );
  });
});
