import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';

/** Live members of a process group (zombies, which a busy init may leave unreaped, are not alive). */
export function liveInGroup(pgid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  const pids: number[] = [];
  for (const line of out.split('\n')) {
    const [pid, group, stat] = line.trim().split(/\s+/);
    if (Number(group) === pgid && stat && !stat.startsWith('Z')) pids.push(Number(pid));
  }
  return pids;
}

/** Resolves once no process of the group is alive; the test's own timeout is the safety net. */
export async function groupEnds(pgid: number): Promise<void> {
  while (liveInGroup(pgid).length) await new Promise((r) => setTimeout(r, 50));
}

/** Resolves once `check` holds. */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

/** Writes an executable shell script. */
export function script(path: string, body: string): string {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}
