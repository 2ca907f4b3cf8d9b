/**
 * CPU time used by the processes under test (Linux /proc), so that a run reports what each request costs the
 * server and the database whatever else the machine was doing: throughput moves with contention, CPU
 * milliseconds per request much less so. Elsewhere these read as undefined and the report leaves them out.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | undefined;
function ticks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

/**
 * [ppid, utime + stime, cutime + cstime in ticks] of one process, or undefined when it is gone. The last is what its
 * children that ended (and were waited for) used.
 */
function readStat(pid: number): [number, number, number] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12]), Number(fields[13]) + Number(fields[14])];
  } catch {
    return undefined;
  }
}

/** Milliseconds of CPU used so far by `pid` (all its threads). */
export function processCpuMs(pid: number): number | undefined {
  const stat = readStat(pid);
  return stat ? (stat[1] * 1000) / ticks() : undefined;
}

/**
 * Milliseconds of CPU used so far by `pid` and its direct children (a PostgreSQL postmaster and its backends),
 * including the children that have ended (an autovacuum worker, a closed connection's backend): without them the
 * total could fall between two readings.
 */
export function processTreeCpuMs(pid: number): number | undefined {
  if (!fs.existsSync('/proc')) return undefined;
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat) continue;
    if (Number(entry) === pid) total += stat[1] + stat[2];
    else if (stat[0] === pid) total += stat[1];
  }
  return (total * 1000) / ticks();
}
