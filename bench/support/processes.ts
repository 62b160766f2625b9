import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { openSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Running {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the first answered /healthz. */
  startMs: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts a Node program on 127.0.0.1 and resolves once it answers /healthz. Its logs go to
 * /dev/null (the same for the service and the baselines: writing them is part of the cost,
 * reading them is not).
 */
export async function startProgram(
  args: string[],
  env: Record<string, string>,
  port?: number,
): Promise<Running> {
  const listenPort = port ?? (await freePort());
  const url = `http://127.0.0.1:${listenPort}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(listenPort), ...env },
    stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = once(child, 'exit');
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`${args.join(' ')} exited with ${child.exitCode}: ${stderr.join('')}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url,
    child,
    startMs: performance.now() - started,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** The service as `npm start` runs it: compiled JavaScript (run `npm run build:server` first). */
export const SERVICE = ['--enable-source-maps', 'dist/server.js'];

export const SELLER_SECRET = 'bench-seller-secret-not-for-production';

/** The service's defaults (SQLite synchronous=FULL, info logs), minus the per-key rate limit. */
export const serviceEnv = (url: string): Record<string, string> => ({
  DATABASE_URL: url,
  LOG_LEVEL: 'info',
  SQLITE_SYNCHRONOUS: 'FULL',
  SELLER_SECRET,
  GAME_RATE_LIMIT_PER_MINUTE: '1000000',
  REDIS_URL: '',
});
