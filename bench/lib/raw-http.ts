// A lean HTTP/1.1 client for the benchmarks' load: keep-alive connections over node:net,
// each carrying one request at a time, requests written as prepared text and replies read
// by their Content-Length. node:http's client cost the orders bench about 160 µs of CPU per
// request (0.39 of a core at 2,400 orders/s on the two cores the server and PostgreSQL
// share); this does the same exchange for a fraction of that. It is only for the benches:
// it speaks just what our server answers (no chunked bodies, no 1xx, no pipelining).
import net from 'node:net';

export interface RawReply {
  status: number;
  body: Buffer;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

/** One keep-alive connection; `send` waits for the reply before the next may be sent. */
class Connection {
  private readonly socket: net.Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private expected: { headerBytes: number; status: number; length: number } | null = null;
  private pending: { resolve: (reply: RawReply) => void; reject: (error: Error) => void } | null =
    null;
  private failure: Error | null = null;

  constructor(host: string, port: number) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  send(request: string): Promise<RawReply> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending) return Promise.reject(new Error('one request at a time on a connection'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    if (!this.expected) {
      const end = this.buffered.indexOf(HEADER_END);
      if (end < 0) return;
      const head = this.buffered.toString('latin1', 0, end);
      const length = CONTENT_LENGTH.exec(head)?.[1];
      if (length === undefined)
        return this.fail(new Error(`a reply without Content-Length: ${head.split('\r\n')[0]}`));
      this.expected = {
        headerBytes: end + HEADER_END.length,
        status: Number(head.slice(9, 12)),
        length: Number(length),
      };
    }
    const { headerBytes, status, length } = this.expected;
    if (this.buffered.length < headerBytes + length) return;
    if (this.buffered.length > headerBytes + length)
      return this.fail(new Error('bytes after the reply: the server answered twice'));
    const body = this.buffered.subarray(headerBytes);
    this.buffered = Buffer.alloc(0);
    this.expected = null;
    const pending = this.pending;
    this.pending = null;
    pending?.resolve({ status, body });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }
}

/**
 * `size` keep-alive connections to `baseUrl`. `request` takes a free connection (there is
 * one as long as no more than `size` requests are outstanding) and gives it back when the
 * reply is read; a connection that failed is replaced.
 */
export class RawHttpPool {
  private readonly free: Connection[] = [];
  private readonly host: string;
  private readonly port: number;

  constructor(
    baseUrl: string,
    private readonly size: number,
  ) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    for (let i = 0; i < size; i++) this.free.push(new Connection(this.host, this.port));
  }

  /** `head` is the request line and headers without Content-Length or the blank line after them. */
  async request(head: string, body: string): Promise<RawReply> {
    const connection = this.free.pop();
    if (!connection) throw new Error(`more than ${this.size} requests outstanding`);
    try {
      const reply = await connection.send(
        `${head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      this.free.push(connection);
      return reply;
    } catch (error) {
      connection.close();
      this.free.push(new Connection(this.host, this.port));
      throw error;
    }
  }

  close(): void {
    for (const connection of this.free.splice(0)) connection.close();
  }
}
