import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * Runs WEB_CONCURRENCY copies of the server (default: one per CPU) on one port, to use more
 * than one core. They share the database like any several processes do; rate-limit counters
 * are shared only through REDIS_URL (without it each process counts on its own). A worker that
 * dies after it started listening is replaced; one that fails to start stops the whole.
 */
const raw = process.env.WEB_CONCURRENCY?.trim();
const count = raw === undefined || raw === '' ? availableParallelism() : Number(raw);
if (!Number.isInteger(count) || count < 1 || count > 64) {
  process.stderr.write(`Configuration error: WEB_CONCURRENCY must be 1 to 64, got "${raw}"\n`);
  process.exit(1);
}

// The server next to this file: server.js when compiled, server.ts under tsx in development.
const server = new URL(
  import.meta.url.endsWith('.ts') ? './server.ts' : './server.js',
  import.meta.url,
);
cluster.setupPrimary({ exec: fileURLToPath(server) });

let stopping = false;
const listening = new WeakSet<Worker>();

function fork(): void {
  const worker = cluster.fork();
  worker.on('listening', () => listening.add(worker));
}

cluster.on('exit', (worker, code, signal) => {
  if (stopping) {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
    return;
  }
  if (!listening.has(worker)) {
    process.stderr.write(`A server process failed to start (exit ${String(code)}); stopping.\n`);
    stopping = true;
    for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
    process.exitCode = code === 0 ? 1 : code;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
    return;
  }
  process.stderr.write(`A server process ended (${signal || String(code)}); starting another.\n`);
  fork();
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Each server drains its requests and closes its database when asked. It is asked by
    // message: when the signal went to the whole process group it has it already, and a second
    // signal would end it at once. One still starting has no requests: a signal stops it.
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker === undefined) continue;
      if (listening.has(worker)) worker.send('shutdown');
      else worker.process.kill('SIGTERM');
    }
  });
}

for (let i = 0; i < count; i++) fork();
