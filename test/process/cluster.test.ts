import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects } from '../helpers/databases.js';

describe.each(testDialects)('npm run start:cluster (%s)', (dialect) => {
  it('should finish a request in flight when the whole process group is told to stop', async () => {
    const database = await createTestDatabase(dialect);
    // A process group of its own, as a terminal or systemd starts it.
    const primary = spawn(process.execPath, ['--import', 'tsx', 'src/cluster.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        WEB_CONCURRENCY: '1',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const exited = once(primary, 'exit').then(([code]) => code as number | null);
    const lines: string[] = [];
    try {
      const base = await new Promise<string>((resolve, reject) => {
        createInterface({ input: primary.stdout }).on('line', (line) => {
          lines.push(line);
          const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        void exited.then(() => {
          reject(new Error(`the cluster exited: ${lines.join('\n')}`));
        });
      });
      // A request whose body is still arriving is in flight until its last byte is sent.
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      await once(socket, 'connect');
      const body = JSON.stringify({ probe: 'x'.repeat(1000) });
      socket.write(
        `POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
      );
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', () => undefined);
      const closed = once(socket, 'close');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(chunks).toHaveLength(0);
      process.kill(-(primary.pid as number), 'SIGTERM');
      const deadline = Date.now() + 5000;
      while (
        !lines.some((line) => line.includes('"msg":"shutting down"')) &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The primary's own request to stop has arrived too, by now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.end(body.slice(10));
      await closed;
      // Answered (405: /healthz takes GET), not cut off by a second signal.
      expect(Buffer.concat(chunks).toString()).toMatch(/^HTTP\/1\.1 405 /);
      expect(lines.some((line) => line.includes('second SIGTERM'))).toBe(false);
      expect(await exited).toBe(0);
    } finally {
      if (primary.exitCode === null) process.kill(-(primary.pid as number), 'SIGKILL');
      await database.drop();
    }
  }, 60_000);
});
