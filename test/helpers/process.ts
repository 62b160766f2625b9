import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Log lines the process has printed so far (JSON text). */
  lines: string[];
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `src/server.ts` as a real process on a free port and resolves once it listens. Only
 * for tests about processes: start-up races, signals, several servers on one database.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    reader.on('line', (line) => {
      lines.push(line);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then((code) => {
      reject(
        new Error(
          `server exited with ${String(code)} before listening: ${stderr.join('')}${lines.join('\n')}`,
        ),
      );
    });
  });
  return {
    child,
    baseUrl,
    lines,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
