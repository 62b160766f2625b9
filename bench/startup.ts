/**
 * `npm run bench:startup`: how long the server takes from spawn to its first answer, and its
 * memory, compiled (`npm start`) against the TypeScript sources under tsx (`npm run dev`), on
 * a SQLite database that is already migrated and seeded (the first start is shown apart).
 */
import { readFileSync } from 'node:fs';
import { createBenchDatabase } from './support/direct.js';
import { load, printTable, machine } from './support/load.js';
import { SERVICE, serviceEnv, startProgram, type Running } from './support/processes.js';

const rssMb = (running: Running): number => {
  const status = readFileSync(`/proc/${String(running.child.pid)}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

const database = await createBenchDatabase('sqlite');
try {
  const env = serviceEnv(database.url);
  const first = await startProgram(SERVICE, env);
  await first.stop();
  const rows = [['compiled, first start (migrate + seed)', first.startMs.toFixed(0), '—', '—']];
  for (const [name, args] of [
    ['compiled (npm start)', SERVICE],
    ['TypeScript under tsx', ['--import', 'tsx', 'src/server.ts']],
  ] as const) {
    const times: number[] = [];
    const idle: number[] = [];
    const loaded: number[] = [];
    for (let i = 0; i < 3; i++) {
      const running = await startProgram([...args], env);
      times.push(running.startMs);
      idle.push(rssMb(running));
      await load({ url: running.url, path: '/api/leaderboard', seconds: 2 });
      loaded.push(rssMb(running));
      await running.stop();
    }
    rows.push([name, median(times).toFixed(0), median(idle).toFixed(0), median(loaded).toFixed(0)]);
  }
  console.log(`\n${machine()}; median of 3\n`);
  printTable(['server', 'start to first answer, ms', 'RSS idle, MB', 'RSS after load, MB'], rows);
} finally {
  await database.drop();
}
