// Concurrency and crash soak on the built CLI (dist/cli.js): several processes — MCP servers and
// CLI runs mixed — subscribe and unsubscribe on one state folder, some killed with SIGKILL at random
// moments, and then every acknowledged subscription must be there, nothing twice, nothing left over.
// Usage: npm run build && node scripts/soak.mjs [--calls 250] [--processes 2,4] [--kills 20] [--seed 1]
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const CALLS = Number(arg('calls', '250'));
const PROCESSES = arg('processes', '2,4').split(',').map(Number);
const KILLS = Number(arg('kills', '20'));
let seed = Number(arg('seed', '1'));
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const CLI = resolve('dist/cli.js');

function cli(root, state, args) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--root', root, '--state-dir', state, '--json'], {
    encoding: 'utf8',
  });
  return { status: r.status, json: r.stdout ? JSON.parse(r.stdout) : undefined, stderr: r.stderr };
}

async function mcpClient(root, state) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', root, '--state-dir', state],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'soak', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid, close: () => client.close() };
}

/**
 * One worker: subscribes to fresh memory queries and unsubscribes each again, keeping only its last.
 * Returns what it saw: lost (an id of its own that vanished), duplicated (a fresh query reported as a
 * renewal) and the query it kept. CLI workers make fewer calls: each call starts a process.
 */
async function worker(kind, name, root, state, calls) {
  const seen = { lost: 0, duplicated: 0, kept: undefined, calls: 0 };
  let previous;
  const mcp = kind === 'mcp' ? await mcpClient(root, state) : undefined;
  try {
    for (let i = 0; i < calls; i++) {
      const query = `${name} query ${i}`;
      let id;
      if (mcp) {
        const r = await mcp.client.callTool({ name: 'subscribe_memory', arguments: { query } });
        if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
        id = r.structuredContent.id;
      } else {
        const r = cli(root, state, ['subscribe', '--kind', 'memory', '--target', query]);
        if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
        if (r.json.renewed) seen.duplicated++;
        id = r.json.subscription.id;
      }
      if (previous) {
        const ok = mcp
          ? !(await mcp.client.callTool({ name: 'unsubscribe', arguments: { id: previous } })).isError
          : cli(root, state, ['unsubscribe', '--id', previous]).status === 0;
        if (!ok) seen.lost++;
      }
      previous = id;
      seen.kept = query;
      seen.calls += 2;
    }
  } finally {
    await mcp?.close();
  }
  return seen;
}

function listed(root, state) {
  return cli(root, state, ['subscriptions']).json.map((s) => s.target);
}

async function concurrency(processes) {
  const base = mkdtempSync(join(tmpdir(), 'pc-soak-'));
  const root = join(base, 'ws');
  const state = join(base, 'state');
  mkdirSync(root);
  try {
    const kinds = Array.from({ length: processes }, (_, i) => (i % 2 === 0 ? 'mcp' : 'cli'));
    const started = Date.now();
    const results = await Promise.all(
      kinds.map((k, i) => worker(k, `w${i}`, root, state, k === 'mcp' ? CALLS : Math.max(20, Math.round(CALLS / 10)))),
    );
    const final = listed(root, state).sort();
    const expected = results.map((r) => r.kept).sort();
    const lost = results.reduce((n, r) => n + r.lost, 0) + expected.filter((q) => !final.includes(q)).length;
    const duplicated = results.reduce((n, r) => n + r.duplicated, 0) + final.length - new Set(final).size;
    const leftOver = final.filter((q) => !expected.includes(q)).length;
    const calls = results.reduce((n, r) => n + r.calls, 0);
    return {
      processes,
      kinds: kinds.join('+'),
      calls,
      lost,
      duplicated,
      leftOver,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** SIGKILL an MCP server, a CLI subscribe or an `index` at a random moment; every acknowledged subscription must survive. */
async function kills(rounds) {
  const base = mkdtempSync(join(tmpdir(), 'pc-soak-kill-'));
  const root = join(base, 'ws');
  const state = join(base, 'state');
  cpSync(resolve('src'), join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'README.md'), '# soak\n');
  const acked = new Set();
  let lost = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const what = ['mcp', 'cli', 'index'][round % 3];
      if (what === 'mcp') {
        const { client, pid } = await mcpClient(root, state);
        const stopAfter = 1 + Math.floor(random() * 6);
        const pending = [];
        for (let i = 0; i < stopAfter; i++) {
          const query = `kill ${round} mcp ${i}`;
          pending.push(
            client.callTool({ name: 'subscribe_memory', arguments: { query } }).then(
              (r) => !r.isError && acked.add(query),
              () => undefined,
            ),
          );
          if (i === stopAfter - 1) await new Promise((r) => setTimeout(r, random() * 30));
          else await pending[pending.length - 1];
        }
        process.kill(pid, 'SIGKILL');
        await Promise.allSettled(pending);
        await client.close().catch(() => undefined);
      } else {
        const query = `kill ${round} ${what}`;
        const args = what === 'index' ? ['index'] : ['subscribe', '--kind', 'memory', '--target', query];
        const child = spawn(process.execPath, [CLI, ...args, '--root', root, '--state-dir', state], {
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        await new Promise((r) => setTimeout(r, 50 + random() * (what === 'index' ? 3000 : 600)));
        child.kill('SIGKILL');
        await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
        if (what === 'cli' && /subscribed/.test(out)) acked.add(query);
      }
      // Keep under the limit of 10: unsubscribe everything acknowledged so far after checking it.
      const now = new Set(listed(root, state));
      for (const q of acked) if (!now.has(q)) lost++;
      if (now.size >= 8) {
        cli(root, state, ['unsubscribe', '--all']);
        acked.clear();
      }
    }
    const reopened = cli(root, state, ['subscriptions']);
    return { rounds, lost, reopened: reopened.status === 0, damagedNotices: /damaged/.test(reopened.stderr) };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const report = { calls: CALLS, concurrency: [], kills: undefined };
for (const n of PROCESSES) report.concurrency.push(await concurrency(n));
report.kills = await kills(KILLS);
process.stdout.write(JSON.stringify(report, null, 2) + '\n');
const failed =
  report.concurrency.some((c) => c.lost || c.duplicated || c.leftOver) || report.kills.lost || !report.kills.reopened;
process.stdout.write(`${failed ? 0 : 1} passed, ${failed ? 1 : 0} failed\n`);
process.exitCode = failed ? 1 : 0;
