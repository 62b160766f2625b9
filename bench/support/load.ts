import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Responses outside 2xx, plus connection errors and timeouts. */
  failures: number;
  /** CPU time the server process spent per request (when its pid is known), in ms. */
  cpuMs: number;
  /** CPU time PostgreSQL's processes spent per request (when `postgres` is set), in ms. */
  postgresCpuMs: number;
}

export interface Load {
  url: string;
  path?: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Called for each request: returns its path, headers and body (for workloads that consume). */
  next?: () => { path: string; headers?: Record<string, string>; body?: string };
  connections?: number;
  seconds?: number;
  /** The server's process id, to measure its CPU time per request. */
  pid?: number | undefined;
  /** The server uses PostgreSQL on this machine: measure its processes' CPU time too. */
  postgres?: boolean;
}

/** A process's name and its user + system CPU time so far, in ms (clock ticks are 10 ms). */
function processCpu(pid: number | string): { name: string; ms: number } {
  const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(') '));
  return { name, ms: (Number(fields[11]) + Number(fields[12])) * 10 };
}

const cpuTimeMs = (pid: number | undefined): number =>
  pid === undefined ? NaN : processCpu(pid).ms;

/** CPU time of each PostgreSQL process on this machine so far (backends and workers), in ms. */
function postgresCpu(): Map<string, number> {
  const times = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { name, ms } = processCpu(entry);
      if (name === 'postgres') times.set(entry, ms);
    } catch {
      // The process ended while the list was read.
    }
  }
  return times;
}

/**
 * The CPU time PostgreSQL's processes spent since `before`: those that started meanwhile count
 * whole, those that ended (an idle connection closed by its pool) are missed. NaN when no
 * PostgreSQL process runs here (a server elsewhere).
 */
function postgresCpuSince(before: Map<string, number>): number {
  const after = postgresCpu();
  if (after.size === 0) return NaN;
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

function optionsOf(spec: Load): autocannon.Options {
  const { next } = spec;
  return {
    url: spec.url + (spec.path ?? ''),
    connections: spec.connections ?? CONNECTIONS,
    method: spec.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...spec.headers },
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(next === undefined
      ? {}
      : {
          requests: [
            {
              setupRequest: (request) => {
                const item = next();
                return {
                  ...request,
                  path: item.path,
                  headers: { ...request.headers, ...item.headers },
                  ...(item.body === undefined ? {} : { body: item.body }),
                };
              },
            },
          ],
        }),
  };
}

async function once(spec: Load, seconds: number): Promise<LoadResult> {
  const postgresBefore = spec.postgres === true ? postgresCpu() : undefined;
  const cpuBefore = cpuTimeMs(spec.pid);
  const result = await autocannon({ ...optionsOf(spec), duration: seconds });
  const cpu = cpuTimeMs(spec.pid) - cpuBefore;
  const postgres = postgresBefore === undefined ? NaN : postgresCpuSince(postgresBefore);
  const statuses = Object.keys(result.statusCodeStats ?? {}).filter(
    (code) => !code.startsWith('2'),
  );
  if (statuses.length > 0) console.error(`  answered ${statuses.join(', ')} to ${spec.url}`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuMs: cpu / Math.max(1, result.requests.total),
    postgresCpuMs: postgres / Math.max(1, result.requests.total),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

/**
 * Bounded HTTP loads on 127.0.0.1, one per spec, after a short warm-up of each: the specs take
 * turns in BENCH_ROUNDS short rounds, so a machine that is busier during one of them does not
 * tilt the comparison. Requests per second are the mean over rounds, latencies the median.
 */
export async function compare(specs: Load[]): Promise<LoadResult[]> {
  for (const spec of specs) await once(spec, 1);
  const rounds: LoadResult[][] = specs.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, spec] of specs.entries()) {
      rounds[index]?.push(
        await once(spec, Math.max(1, Math.round((spec.seconds ?? SECONDS) / ROUNDS))),
      );
    }
  }
  return rounds.map((results) => ({
    rps: results.reduce((sum, result) => sum + result.rps, 0) / results.length,
    p50: median(results.map((result) => result.p50)),
    p99: median(results.map((result) => result.p99)),
    failures: results.reduce((sum, result) => sum + result.failures, 0),
    cpuMs: results.reduce((sum, result) => sum + result.cpuMs, 0) / results.length,
    postgresCpuMs: results.reduce((sum, result) => sum + result.postgresCpuMs, 0) / results.length,
  }));
}

export async function load(spec: Load): Promise<LoadResult> {
  const [result] = await compare([spec]);
  if (result === undefined) throw new Error('no result');
  return result;
}

export const formatRps = (value: number) =>
  value >= 10_000 ? `${(value / 1000).toFixed(1)}k` : value.toFixed(0);

/** Prints a Markdown table (so it can be pasted into bench/README.md as is). */
export function printTable(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of cells.slice(1)) console.log(line(row));
}

/** When and where a table was measured: other work on the machine shows in the load average. */
export function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const [one = 0] = loadavg();
  return `${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} × ${cpu}, node ${process.version}, load average ${one.toFixed(1)} at the end`;
}
