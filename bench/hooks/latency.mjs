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
//     [--modes warm,one-shot] [--dist DIR] [--launcher hook|cli] [--baseline DIR] [--no-index] [--json FILE]
//
// --launcher cli measures `node dist/cli.js hook --port P` (the CLI bundle, and an older build's way
// of finding the server). --baseline DIR: an older build's dist, measured that way side by side, call
// for call in turn with this one (each with its own server and its own copy of the state), so both
// see the same load.
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
    baseline: { type: 'string' },
    launcher: { type: 'string', default: 'hook' },
    'state-dir': { type: 'string' },
    'no-index': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '60000' },
    json: { type: 'string' },
  },
});

const repo = path.resolve(opt.repo);
const runs = Number(opt.runs);
const warmup = Number(opt.warmup);
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
const stateDir = opt['state-dir'] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-hooks-'));

/** A build to measure: where it is, how its hook is started, and its own copy of the state. */
const current = { name: 'current', dist: path.resolve(opt.dist), launcher: opt.launcher, stateDir };
const baseline = opt.baseline
  ? { name: 'baseline', dist: path.resolve(opt.baseline), launcher: 'cli', stateDir: `${stateDir}-baseline` }
  : undefined;

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

function hookArgs(t, port) {
  const common = ['--host', 'claude-code', '--root', repo, '--state-dir', t.stateDir, '--timeout', opt.timeout];
  if (t.launcher === 'cli')
    return [path.join(t.dist, 'cli.js'), 'hook', ...common, ...(port ? ['--port', String(port)] : [])];
  return [path.join(t.dist, 'hook.js'), ...common];
}

function lastLog(t) {
  try {
    return fs.readFileSync(path.join(t.stateDir, 'hook.log'), 'utf8').trim().split('\n').pop() ?? '';
  } catch {
    return '';
  }
}

/** One hook process, as a host runs it; resolves once it has exited. */
function callHook(t, args, session) {
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
        const log = lastLog(t);
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

/** The warm-up calls, then `runs` calls of each target in turn (interleaved, so both see the same load). */
async function measure(mode, targets) {
  const argsOf = (t) => [
    ...hookArgs(t, mode === 'warm' ? t.port : undefined),
    ...(mode === 'one-shot' ? ['--no-server'] : []),
  ];
  for (const t of targets)
    for (let i = 0; i < warmup; i++) await callHook(t, argsOf(t), `${mode}-warm-${i}-${Date.now()}`);
  const load = os.loadavg();
  const server0 = targets.map((t) => (t.pid ? cpuOf(t.pid, false) : NaN));
  const calls = targets.map(() => []);
  for (let i = 0; i < runs; i++)
    for (const [k, t] of targets.entries()) calls[k].push(await callHook(t, argsOf(t), `${mode}-${i}-${Date.now()}`));
  const loadAfter = os.loadavg()[0];
  return targets.map((t, k) => {
    const xs = calls[k];
    const q = (f, p) => quantile(xs.map(f), p);
    return {
      mode,
      build: t.name,
      dist: t.dist,
      launcher: t.launcher,
      runs,
      answered: xs.filter((c) => c.out.includes('additionalContext')).length,
      via: [...new Set(xs.map((c) => c.via))].join(','),
      load: [load[0], loadAfter].map((l) => Number(l.toFixed(1))),
      wall: { p50: q((c) => c.wall, 0.5), p95: q((c) => c.wall, 0.95) },
      hook: { p50: q((c) => c.hookMs, 0.5), p95: q((c) => c.hookMs, 0.95) },
      cpu: { mean: xs.reduce((a, c) => a + c.cpu, 0) / runs, p50: q((c) => c.cpu, 0.5), p95: q((c) => c.cpu, 0.95) },
      serverCpuPerCall: t.pid ? ((cpuOf(t.pid, false) - server0[k]) * 1000) / runs : NaN,
    };
  });
}

/** `mcp --http` of a target's build on its own state; resolves once it listens and its background work is done. */
async function startServer(t) {
  const child = spawn(
    process.execPath,
    [path.join(t.dist, 'cli.js'), 'mcp', '--http', '--port', '0', '--json', '--root', repo, '--state-dir', t.stateDir],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  t.port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(Number(new URL(JSON.parse(line).url).port));
    });
    child.once('exit', (code) => reject(new Error(`mcp --http exited with ${code}`)));
  });
  t.pid = child.pid;
  t.stop = () =>
    new Promise((r) => {
      child.once('exit', r);
      child.kill('SIGTERM');
    });
  await serverIdle(child.pid);
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
  const targets = [current, ...(baseline ? [baseline] : [])];
  console.error(
    `workspace ${repo} (${files} files), state ${stateDir}; ${targets.map((t) => `${t.dist} via ${t.launcher}`).join(' against ')}`,
  );
  if (!opt['no-index']) {
    console.error('indexing (one-shot `index`)…');
    spawnSync(process.execPath, [path.join(current.dist, 'cli.js'), 'index', '--root', repo, '--state-dir', stateDir], {
      stdio: 'ignore',
    });
  }
  // The baseline starts from the same index, in a copy of its own (the builds may store things differently).
  if (baseline) fs.cpSync(stateDir, baseline.stateDir, { recursive: true });
  const results = [];
  const modes = opt.modes.split(',');
  if (modes.includes('warm')) {
    try {
      for (const t of targets) await startServer(t);
      results.push(...(await measure('warm', targets)));
    } finally {
      for (const t of targets) await t.stop?.();
      for (const t of targets) delete t.pid;
    }
  }
  if (modes.includes('one-shot')) results.push(...(await measure('one-shot', targets)));
  const floor = await nodeFloor();
  const report = {
    repo,
    files,
    file: opt.file,
    node: process.version,
    cpus: os.cpus().length,
    nodeFloor: floor,
    results,
  };
  if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(report, null, 2) + '\n');
  console.log(`node ${process.version} -e 0 now: p50 ${ms(floor.p50)}, p95 ${ms(floor.p95)}; ${os.cpus().length} CPUs`);
  console.log(
    '| path | build (launcher) | load | wall p50 | wall p95 | hook p50 | hook p95 | CPU/process mean | CPU p95 | server CPU/call | answered |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.mode} (${r.via}) | ${r.build} (${r.launcher}) | ${r.load.join('→')} | ${ms(r.wall.p50)} | ${ms(r.wall.p95)} | ${ms(r.hook.p50)} | ${ms(r.hook.p95)} | ${ms(r.cpu.mean)} | ${ms(r.cpu.p95)} | ${ms(r.serverCpuPerCall)} | ${r.answered}/${r.runs} |`,
    );
  if (!opt['state-dir']) fs.rmSync(stateDir, { recursive: true, force: true });
  if (baseline) fs.rmSync(baseline.stateDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
