/** A bench's reading of another process's CPU time, for CPU per request beside req/s. */
import { readFileSync } from 'node:fs';

/**
 * CPU time (user and system) the process `pid` has used, in microseconds, from `/proc/<pid>/stat` (in clock ticks of
 * 10 ms: over a round of seconds and thousands of requests, about 1 µs per request); NaN where there is no `/proc`.
 */
export function cpuMicroseconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return Number.NaN;
  }
}
