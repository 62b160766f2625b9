import { Transform, type TransformCallback, type Writable } from 'node:stream';
import { invalidAnswer, invalidMessage, usableId } from './jsonrpc.js';

/** The longest line taken: a message as large as the HTTP endpoint takes (64 KiB). */
export const MAX_LINE_BYTES = 64 * 1024;

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * Standard input as the stdio transport should see it: only lines that are JSON-RPC messages
 * it takes. The transport drops any other line without a word (a request with an id is then
 * never answered), and stops for good at a line over 10 MiB. Here each such line is answered on
 * `out`: -32700 for text that is not JSON, -32600 for JSON that is no message, for a batch (over
 * stdio each message has its own line) and for a line over 64 KiB; reading goes on. Answers
 * wait for `out` to drain, so that a flood of bad lines slows the reading rather than filling
 * memory.
 */
export class MessageLines extends Transform {
  private pending: Buffer[] = [];
  private size = 0;
  /** Inside a line already answered as too long: dropped up to its end. */
  private skipping = false;
  /** Whether `out` asked to wait before more is written. */
  private full = false;

  constructor(private readonly out: Writable) {
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
      if (contentLength(line) > MAX_LINE_BYTES) this.answer(tooLong());
      else this.admit(line);
    }
    // A line still arriving is kept up to the limit (and a carriage return before its end).
    if (!this.skipping && rest.length > 0) {
      this.pending.push(rest);
      this.size += rest.length;
      if (this.size > MAX_LINE_BYTES + 1) {
        this.pending = [];
        this.size = 0;
        this.skipping = true;
        this.answer(tooLong());
      }
    }
    this.afterDrain(done);
  }

  /** A last line without its newline is taken as if it had one. */
  override _flush(done: TransformCallback): void {
    if (!this.skipping && this.size > 0) {
      const line = Buffer.concat([...this.pending, Buffer.from('\n')]);
      if (contentLength(line) > MAX_LINE_BYTES) this.answer(tooLong());
      else this.admit(line);
    }
    this.afterDrain(done);
  }

  private afterDrain(done: TransformCallback): void {
    if (!this.full) {
      done();
      return;
    }
    this.out.once('drain', () => {
      this.full = false;
      done();
    });
  }

  private answer(reply: object): void {
    if (!this.out.write(`${JSON.stringify(reply)}\n`)) this.full = true;
  }

  /** Reads the line as the transport will (the bytes before its end of line, nothing trimmed). */
  private admit(line: Buffer): void {
    const text = line.subarray(0, contentLength(line)).toString('utf8');
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

/** A line's length without its end of line (`\n` or `\r\n`). */
function contentLength(line: Buffer): number {
  let end = line.length;
  if (end > 0 && line[end - 1] === NEWLINE) end -= 1;
  if (end > 0 && line[end - 1] === RETURN) end -= 1;
  return end;
}

const tooLong = () =>
  invalidAnswer(`Invalid Request: a line over ${MAX_LINE_BYTES / 1024} KiB; messages are smaller.`);
