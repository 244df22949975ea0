import assert from 'node:assert/strict';
import { redactionNote, redactSecrets, redactWithNote } from '../../../src/core/security/secretRedaction';

// Assembled at run time so the source holds no string a secret scanner would flag.
const fake = (...parts: string[]) => parts.join('');
const AWS_ID = fake('AKIA', 'IOSFODNN7', 'EXAMPLE');
const AWS_SECRET = fake('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY');
const GITHUB = fake('ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8');
const GITLAB = fake('glpat-', 'Ab3dEf6hIj9lMn2pQr5t');
const SLACK = fake('xoxb-', '123456789012-abcdefghijkl');
const STRIPE = fake('sk_live_', '51Habcdefghijklmnopqrstu');
const STRIPE_RESTRICTED = fake('rk_live_', '51Habcdefghijklmnopqrstu');
const GOOGLE = fake('AIza', 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q');
const OPENAI = fake('sk-live-', 'abcdefghijklmnopqrstuvwx1234');
const ANTHROPIC = fake('sk-ant-', 'api03-abcdefghijklmnopqrstuvwxyz012345');
const JWT = fake(
  'eyJhbGciOiJIUzI1NiJ9',
  '.',
  'eyJzdWIiOiIxMjM0NTY3ODkwIn0',
  '.',
  'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
);
const PEM = fake('-----BEGIN RSA ', 'PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabcdef\n-----END RSA ', 'PRIVATE KEY-----');

describe('redactSecrets', () => {
  it('redacts each well-known kind of key and says which', () => {
    const cases: [string, string][] = [
      [`const id = "${AWS_ID}";`, 'AWS access key'],
      [`aws_secret_access_key = ${AWS_SECRET}`, 'AWS secret key'],
      [`token: ${GITHUB}`, 'GitHub token'],
      [`export GL=${GITLAB}`, 'GitLab token'],
      [`slack ${SLACK}`, 'Slack token'],
      [`stripe.key = '${STRIPE}'`, 'Stripe key'],
      [`restricted ${STRIPE_RESTRICTED}`, 'Stripe key'],
      [`maps key ${GOOGLE}`, 'Google API key'],
      [`const client = new OpenAI({ apiKey: "${OPENAI}" })`, 'API key'],
      [`ANTHROPIC=${ANTHROPIC}`, 'Anthropic API key'],
      [`Authorization: Bearer ${JWT}`, 'JWT'],
      [`key:\n${PEM}\nafter`, 'private key'],
      ['DB_PASSWORD=hunter2hunter2', 'secret value'],
      ['"client_secret": "9f8e7d6c5b4a39281706"', 'secret value'],
    ];
    for (const [text, label] of cases) {
      const r = redactSecrets(text);
      assert.ok(r.text.includes(`[redacted: ${label}]`), `${label}: ${r.text}`);
      assert.deepEqual(
        r.redactions.map((x) => x.label),
        [label],
        text,
      );
      for (const secret of [
        AWS_ID,
        AWS_SECRET,
        GITHUB,
        GITLAB,
        SLACK,
        STRIPE,
        STRIPE_RESTRICTED,
        GOOGLE,
        OPENAI,
        ANTHROPIC,
        JWT,
        'MIIEowIBAAKCAQEA7',
        'hunter2hunter2',
        '9f8e7d6c5b4a39281706',
      ]) {
        assert.ok(!r.text.includes(secret), `${secret} left in ${r.text}`);
      }
    }
    assert.match(redactSecrets(`key:\n${PEM}\nafter`).text, /^key:\n\[redacted: private key\]\nafter$/);
  });

  it('leaves ordinary code alone, and returns the very same string', () => {
    const code = [
      'const password = getPassword(user);',
      'const tokenizer = new Tokenizer();',
      'passwordFile: /etc/app/pass.txt',
      'api_key_id = 12345678901234',
      'secret = process.env.SECRET_VALUE',
      'password: ${DB_PASSWORD}',
      'skip-navigation sk-this-is-short',
      'See https://example.com/docs#section',
    ].join('\n');
    const r = redactSecrets(code);
    assert.equal(r.text, code);
    assert.deepEqual(r.redactions, []);
  });

  it('counts repeats and writes a one-line note', () => {
    const r = redactSecrets(`${GITHUB}\n${GITHUB}\n${AWS_ID}`);
    assert.deepEqual(r.redactions, [
      { label: 'AWS access key', count: 1 },
      { label: 'GitHub token', count: 2 },
    ]);
    assert.equal(
      redactionNote(r.redactions),
      '[3 secrets redacted before leaving this machine: AWS access key, 2 × GitHub token]',
    );
    assert.equal(redactWithNote('nothing here'), 'nothing here');
    assert.match(
      redactWithNote(`k=${AWS_ID}`),
      /^k=\[redacted: AWS access key\]\n\[1 secret redacted before leaving this machine: AWS access key\]$/,
    );
  });

  it('stays linear on long hostile runs', () => {
    const hostile = [
      'a'.repeat(200_000),
      'password=' + 'x'.repeat(200_000),
      'eyJ' + 'a'.repeat(100_000) + '.eyJ',
      '-----BEGIN PRIVATE KEY-----' + 'A'.repeat(100_000),
    ];
    for (const h of hostile) assert.ok(typeof redactSecrets(h).text === 'string');
  });
});
