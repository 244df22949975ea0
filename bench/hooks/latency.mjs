// `npm run bench:hooks -- [--repo PATH] [--runs N]`: how long an agent waits for a hook, measured as the
// host runs it: a new process per call, fed a Claude Code PreToolUse input on stdin, each call a new
// session (so every answer is rendered in full). Two paths: warm (a running `mcp --http` on the same
// workspace answers) and one-shot (no server: the hook answers in its own process). Per call: wall
// time from spawn to exit, CPU time of the process and what it ran (from this process's reaped
// children), and the hook's own time as it logs it; for the warm path also the server's CPU per call.
// The warm path is measured once the server is idle (its background indexing and mining done). The
// load average is printed with the results: on a shared machine wall times are mostly waiting.
//
//   npm run bench:hooks -- [--repo /tmp/panel-repos/Unleash__unleash] [--file F] [--runs 30] [--warmup 3]
//     [--modes warm,one-shot] [--dist DIR] [--launcher hook|cli] [--no-index] [--json FILE]
//
// --launcher cli measures `node dist/cli.js hook --port P` (the CLI bundle, and an older build's way
// of finding the server); --dist DIR measures another build, for a side-by-side comparison.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: {
    repo: { type: 'string', default: '/tmp/panel-repos/Unleash__unleash' },
    file: { type: 'string', default: 'frontend/src/component/common/Table/index.ts' },
    runs: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'warm,one-shot' },
    dist: { type: 'string', default: 'dist' },
    launcher: { type: 'string', default: 'hook' },
    'state-dir': { type: 'string' },
    'no-index': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '60000' },
    json: { type: 'string' },
  },
});

const repo = path.resolve(opt.repo);
const dist = path.resolve(opt.dist);
const runs = Number(opt.runs);
const warmup = Number(opt.warmup);
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
const stateDir = opt['state-dir'] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-hooks-'));

/** CPU seconds of a process's own time, or of its reaped children, from /proc (Linux). */
function cpuOf(pid, children) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14-17 of stat (utime, stime, cutime, cstime), counted from field 3 after the name.
    const [u, s, cu, cs] = [11, 12, 13, 14].map((i) => Number(f[i]));
    return (children ? cu + cs : u + s) / CLK_TCK;
  } catch {
    return NaN;
  }
}

function quantile(xs, q) {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}

function hookArgs(port) {
  const common = ['--host', 'claude-code', '--root', repo, '--state-dir', stateDir, '--timeout', opt.timeout];
  if (opt.launcher === 'cli')
    return [path.join(dist, 'cli.js'), 'hook', ...common, ...(port ? ['--port', String(port)] : [])];
  return [path.join(dist, 'hook.js'), ...common];
}

function lastLog() {
  try {
    return fs.readFileSync(path.join(stateDir, 'hook.log'), 'utf8').trim().split('\n').pop() ?? '';
  } catch {
    return '';
  }
}

/** One hook process, as a host runs it; resolves once it has exited. */
function callHook(args, session) {
  const input = JSON.stringify({
    session_id: session,
    hook_event_name: 'PreToolUse',
    cwd: repo,
    tool_name: 'Edit',
    tool_input: { file_path: opt.file },
  });
  return new Promise((resolve, reject) => {
    const cpu0 = cpuOf(process.pid, true);
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', () => undefined);
    child.on('error', reject);
    child.on('exit', (code) => {
      const wall = performance.now() - t0;
      // The child is reaped by now: its CPU (and its git's) is in this process's children's time.
      setImmediate(() => {
        const log = lastLog();
        const own = /via (\S+) in (\d+) ms/.exec(log);
        resolve({
          code,
          wall,
          cpu: (cpuOf(process.pid, true) - cpu0) * 1000,
          out,
          via: own?.[1],
          hookMs: Number(own?.[2]),
        });
      });
    });
    child.stdin.end(input);
  });
}

/** Waits until the server is idle (under 10% of a CPU over 2 s): its background indexing and mining done, the index warm. */
async function serverIdle(pid) {
  const until = Date.now() + 10 * 60_000;
  while (Date.now() < until) {
    const c0 = cpuOf(pid, false);
    await new Promise((r) => setTimeout(r, 2000));
    if (cpuOf(pid, false) - c0 < 0.2) return;
  }
  console.error('the server was still busy after 10 minutes; measuring anyway');
}

async function measure(mode, port, serverPid) {
  const args = hookArgs(mode === 'warm' ? port : undefined);
  if (mode === 'one-shot') args.push('--no-server');
  for (let i = 0; i < warmup; i++) await callHook(args, `${mode}-warm-${i}-${Date.now()}`);
  const load = os.loadavg();
  const server0 = serverPid ? cpuOf(serverPid, false) : NaN;
  const calls = [];
  for (let i = 0; i < runs; i++) calls.push(await callHook(args, `${mode}-${i}-${Date.now()}`));
  const serverCpu = serverPid ? ((cpuOf(serverPid, false) - server0) * 1000) / runs : NaN;
  const answered = calls.filter((c) => c.out.includes('additionalContext')).length;
  const vias = [...new Set(calls.map((c) => c.via))].join(',');
  return {
    mode,
    launcher: opt.launcher,
    runs,
    answered,
    via: vias,
    load: [load[0], os.loadavg()[0]].map((l) => Number(l.toFixed(1))),
    wall: {
      p50: quantile(
        calls.map((c) => c.wall),
        0.5,
      ),
      p95: quantile(
        calls.map((c) => c.wall),
        0.95,
      ),
    },
    hook: {
      p50: quantile(
        calls.map((c) => c.hookMs),
        0.5,
      ),
      p95: quantile(
        calls.map((c) => c.hookMs),
        0.95,
      ),
    },
    cpu: {
      mean: calls.reduce((a, c) => a + c.cpu, 0) / runs,
      p50: quantile(
        calls.map((c) => c.cpu),
        0.5,
      ),
      p95: quantile(
        calls.map((c) => c.cpu),
        0.95,
      ),
    },
    serverCpuPerCall: serverCpu,
  };
}

function startServer() {
  const child = spawn(
    process.execPath,
    [path.join(dist, 'cli.js'), 'mcp', '--http', '--port', '0', '--json', '--root', repo, '--state-dir', stateDir],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, port: Number(new URL(JSON.parse(line).url).port) });
    });
    child.once('exit', (code) => reject(new Error(`mcp --http exited with ${code}`)));
  });
}

/** Node's own start and exit on this machine now: the floor under any hook process. */
async function nodeFloor() {
  const walls = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    walls.push(performance.now() - t0);
  }
  return { p50: quantile(walls, 0.5), p95: quantile(walls, 0.95) };
}

const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '—');

async function main() {
  if (!fs.existsSync(path.join(repo, opt.file))) throw new Error(`${opt.file} is not a file of ${repo}`);
  const files =
    spawnSync('git', ['-C', repo, 'ls-files'], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout.split('\n').length - 1;
  console.error(`workspace ${repo} (${files} files), state ${stateDir}, ${dist} via ${opt.launcher}`);
  if (!opt['no-index']) {
    console.error('indexing (one-shot `index`)…');
    spawnSync(process.execPath, [path.join(dist, 'cli.js'), 'index', '--root', repo, '--state-dir', stateDir], {
      stdio: 'ignore',
    });
  }
  const results = [];
  const modes = opt.modes.split(',');
  if (modes.includes('warm')) {
    const { child, port } = await startServer();
    try {
      await serverIdle(child.pid);
      results.push(await measure('warm', port, child.pid));
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
  if (modes.includes('one-shot')) results.push(await measure('one-shot'));
  const floor = await nodeFloor();
  const report = { repo, files, file: opt.file, dist, cpus: os.cpus().length, nodeFloor: floor, results };
  if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(report, null, 2) + '\n');
  console.log(`node -e 0 now: p50 ${ms(floor.p50)}, p95 ${ms(floor.p95)}; ${os.cpus().length} CPUs`);
  console.log(
    '| path | launcher | load | wall p50 | wall p95 | hook p50 | hook p95 | CPU/process mean | CPU p95 | server CPU/call | answered |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.mode} (${r.via}) | ${r.launcher} | ${r.load.join('→')} | ${ms(r.wall.p50)} | ${ms(r.wall.p95)} | ${ms(r.hook.p50)} | ${ms(r.hook.p95)} | ${ms(r.cpu.mean)} | ${ms(r.cpu.p95)} | ${ms(r.serverCpuPerCall)} | ${r.answered}/${r.runs} |`,
    );
  if (!opt['state-dir']) fs.rmSync(stateDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
