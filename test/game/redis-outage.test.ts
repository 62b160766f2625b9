import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.js';

const REDIS_SERVER = '/usr/bin/redis-server';

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A Redis of the test's own, so that it can be stopped without disturbing anyone else's. */
async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  for await (const chunk of redis.stdout as AsyncIterable<Buffer>) {
    output += chunk.toString();
    if (output.includes('Ready to accept connections')) break;
  }
  return redis;
}

async function stopRedis(redis: ChildProcess): Promise<void> {
  const exited = once(redis, 'exit');
  redis.kill('SIGKILL');
  await exited;
}

describe.skipIf(!existsSync(REDIS_SERVER))('rate limits when Redis is lost', () => {
  it('should keep answering, uncounted, while Redis is down and count again once it is back', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const t = await createTestApp('sqlite', {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      GAME_RATE_LIMIT_PER_MINUTE: '2',
    });
    try {
      const products = async () => (await t.app.inject('/api/products')).statusCode;
      expect([await products(), await products(), await products()]).toEqual([200, 200, 429]);

      await stopRedis(redis);
      // Down: neither an error answer nor a crashed process, and nothing counted.
      const whileDown: number[] = [];
      for (let i = 0; i < 5; i++) whileDown.push(await products());
      expect(whileDown).toEqual([200, 200, 200, 200, 200]);

      // Back (empty, as a restarted Redis that keeps nothing on disk is): counting resumes.
      redis = await startRedis(port);
      const deadline = Date.now() + 10_000;
      const afterwards: number[] = [];
      while (Date.now() < deadline && !afterwards.includes(429)) {
        afterwards.push(await products());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(afterwards).toContain(429);
      expect(afterwards.every((status) => status === 200 || status === 429)).toBe(true);
    } finally {
      await t.close();
      await stopRedis(redis);
    }
  });
});
