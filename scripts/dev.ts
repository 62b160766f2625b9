/**
 * `npm run dev`: the API server restarting on changes to src/, and Vite serving the web app with
 * live reload, its API calls proxied to the server. Open the address Vite prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const children: ChildProcess[] = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server.ts'], { stdio: 'inherit' }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--host', '127.0.0.1'], {
    stdio: 'inherit',
  }),
];

let stopping = false;
const stop = (code: number) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) {
  child.on('exit', (code) => {
    stop(code ?? 0);
  });
}
process.on('SIGINT', () => {
  stop(0);
});
process.on('SIGTERM', () => {
  stop(0);
});
