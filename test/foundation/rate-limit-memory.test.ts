import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/http/errors.js';
import { countedInMemory, MAX_COUNTED_KEYS } from '../../src/http/rate-limit.js';

/** A request of `key` through `limit`: the headers it set, and the error it threw, if any. */
function hit(limit: ReturnType<typeof countedInMemory>, key: string) {
  const headers: Record<string, unknown> = {};
  const reply = {
    header: (name: string, value: unknown) => {
      headers[name] = value;
      return reply;
    },
  };
  try {
    void limit({ playerId: key } as unknown as FastifyRequest, reply as unknown as FastifyReply);
    return { headers, error: undefined };
  } catch (error) {
    return { headers, error };
  }
}

describe('the game limits counted in memory (no Redis)', () => {
  const WINDOW_MS = 60_000;
  let limit: ReturnType<typeof countedInMemory>;

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-25T12:00:00Z') });
    limit = countedInMemory(3, WINDOW_MS, (request) => request.playerId);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('should answer 429 past the limit with Retry-After until the window ends, then count anew', () => {
    expect(hit(limit, 'a').headers).toMatchObject({ 'ratelimit-remaining': 2 });
    hit(limit, 'a');
    expect(hit(limit, 'a').headers).toMatchObject({
      'ratelimit-limit': 3,
      'ratelimit-remaining': 0,
      'ratelimit-reset': 60,
    });
    vi.advanceTimersByTime(20_000);
    const refused = hit(limit, 'a');
    expect(refused.error).toBeInstanceOf(AppError);
    expect((refused.error as AppError).code).toBe('rate_limited');
    expect((refused.error as AppError).message).toBe('Too many requests; retry in 40 seconds.');
    expect(refused.headers).toMatchObject({ 'retry-after': 40, 'ratelimit-remaining': 0 });
    // Another key has its own window.
    expect(hit(limit, 'b').error).toBeUndefined();
    vi.advanceTimersByTime(40_000);
    const again = hit(limit, 'a');
    expect(again.error).toBeUndefined();
    expect(again.headers).toMatchObject({ 'ratelimit-remaining': 2, 'ratelimit-reset': 60 });
  });

  it(`should count at most ${MAX_COUNTED_KEYS.toLocaleString('en')} keys, forgetting the oldest window first`, () => {
    hit(limit, 'oldest');
    hit(limit, 'oldest');
    vi.advanceTimersByTime(1);
    hit(limit, 'second');
    hit(limit, 'second');
    for (let i = 0; i < MAX_COUNTED_KEYS - 2; i++) hit(limit, `key-${String(i)}`);
    // The map is full: one more key makes room by dropping the oldest window, and only that one.
    hit(limit, 'newcomer');
    expect(hit(limit, 'second').headers).toMatchObject({ 'ratelimit-remaining': 0 });
    expect(hit(limit, 'oldest').headers).toMatchObject({ 'ratelimit-remaining': 2 });
  });
});
