import { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, MessageLines } from '../../src/mcp/stdio-lines.js';

/** A standard output that keeps what it is given and says, each time, to wait for it to drain. */
class StalledOutput extends EventEmitter {
  written: string[] = [];
  write(text: string): boolean {
    this.written.push(text);
    return false;
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the stdio line filter', () => {
  it('should stop reading while its answers wait for standard output, not pile them up', async () => {
    const out = new StalledOutput();
    const lines = new MessageLines(out as unknown as Writable);
    const junk = Buffer.from('x\n'.repeat(1024));
    for (let i = 0; i < 20; i += 1) lines.write(junk);
    for (let i = 0; i < 10; i += 1) await tick();
    // One chunk's lines are answered; the other 19 chunks wait for standard output to drain.
    expect(out.written.length).toBe(1024);
    expect(JSON.parse(out.written[0] ?? '{}')).toMatchObject({ id: null, error: { code: -32700 } });
    out.emit('drain');
    for (let i = 0; i < 10; i += 1) await tick();
    expect(out.written.length).toBe(2048);
  });

  it('should pass on exactly the lines the transport takes, ends of line included', async () => {
    const written: string[] = [];
    const out = { write: (text: string) => written.push(text) > 0 } as unknown as Writable;
    const lines = new MessageLines(out);
    const passed: string[] = [];
    lines.on('data', (chunk: Buffer) => passed.push(chunk.toString()));
    const ping = (id: number, pad = '') =>
      `{"jsonrpc":"2.0","id":${id},"method":"ping"${pad === '' ? '' : `,"params":{"pad":"${pad}"}`}}`;
    // A line of exactly the limit, ended by CRLF, is taken; one byte more is not.
    const base = ping(3, 'x').length - 1;
    const full = ping(3, 'x'.repeat(MAX_LINE_BYTES - base));
    expect(Buffer.byteLength(full)).toBe(MAX_LINE_BYTES);
    lines.write(`\uFEFF${ping(1)}\n`);
    lines.write(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":5}}\n`);
    lines.write(`${full}\r\n`);
    lines.write(`${ping(4, 'x'.repeat(MAX_LINE_BYTES - base + 1))}\r\n`);
    lines.end(ping(5));
    await new Promise((resolve) => lines.on('end', resolve).resume());
    expect(passed.map((line) => JSON.parse(line) as { id: number }).map((m) => m.id)).toEqual([
      3, 5,
    ]);
    expect(written.map((line) => JSON.parse(line) as object)).toEqual([
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) }),
      expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
    ]);
  });
});
