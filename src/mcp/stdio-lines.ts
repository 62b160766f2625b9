import { Transform, type TransformCallback } from 'node:stream';
import { invalidAnswer, invalidMessage, usableId } from './jsonrpc.js';

/** The longest line taken: a message as large as the HTTP endpoint takes (64 KiB). */
export const MAX_LINE_BYTES = 64 * 1024;

const NEWLINE = 0x0a;

/**
 * Standard input as the stdio transport should see it: only lines that are JSON-RPC messages.
 * The transport drops any other line without a word (a request with an id is then never
 * answered), and stops for good at a line over 10 MiB. Here each such line is answered on the
 * way out: -32700 for text that is not JSON, -32600 for JSON that is no message, for a batch
 * (over stdio each message has its own line) and for a line over 64 KiB; reading goes on.
 */
export class MessageLines extends Transform {
  private pending: Buffer[] = [];
  private size = 0;
  /** Inside a line already answered as too long: dropped up to its end. */
  private skipping = false;

  constructor(private readonly answer: (reply: object) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let rest = chunk;
    for (let end = rest.indexOf(NEWLINE); end !== -1; end = rest.indexOf(NEWLINE)) {
      const piece = rest.subarray(0, end + 1);
      rest = rest.subarray(end + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = Buffer.concat([...this.pending, piece]);
      this.pending = [];
      this.size = 0;
      if (line.length - 1 > MAX_LINE_BYTES) this.answer(tooLong());
      else this.admit(line);
    }
    if (!this.skipping && rest.length > 0) {
      this.pending.push(rest);
      this.size += rest.length;
      if (this.size > MAX_LINE_BYTES) {
        this.pending = [];
        this.size = 0;
        this.skipping = true;
        this.answer(tooLong());
      }
    }
    done();
  }

  /** A last line without its newline is taken as if it had one. */
  override _flush(done: TransformCallback): void {
    if (!this.skipping && this.size > 0)
      this.admit(Buffer.concat([...this.pending, Buffer.from('\n')]));
    done();
  }

  private admit(line: Buffer): void {
    const text = line.toString('utf8').trim();
    if (text === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text) as unknown;
    } catch {
      this.answer({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32700,
          message: 'Parse error: the line is not JSON.',
          data: { code: 'invalid_json' },
        },
      });
      return;
    }
    const problem = Array.isArray(message)
      ? 'Invalid Request: a batch; over stdio, send each message on a line of its own.'
      : invalidMessage(message);
    if (problem === undefined) this.push(line);
    else this.answer(invalidAnswer(problem, usableId(message)));
  }
}

const tooLong = () =>
  invalidAnswer(`Invalid Request: a line over ${MAX_LINE_BYTES / 1024} KiB; messages are smaller.`);
