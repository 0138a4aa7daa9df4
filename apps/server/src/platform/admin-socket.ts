// The running server's admin channel: a Unix socket in DATA_DIR that only the account running
// the server can open (mode 0600). One JSON request per connection, one JSON reply, so a shell
// tool reaches the server's own caches, sockets and relay instead of a second copy of them.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ADMIN_SOCKET_FILE = 'admin.sock';

/** Longest Unix socket path Linux and macOS accept (sun_path is 108 and 104 bytes with the NUL). */
const MAX_SOCKET_PATH_BYTES = 103;
const MAX_REQUEST_BYTES = 64 * 1024;
const MAX_REPLY_BYTES = 16 * 1024 * 1024;
/** A client sends its request at once; one that stalls loses its connection. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Commands run one after another or a few at a time; more waiting clients are refused. */
const MAX_CONNECTIONS = 8;

export interface AdminRequest {
  command: string;
  options: Record<string, string>;
  /** The arguments after the command's name. */
  positionals: string[];
  /** The database the client means (`databaseIdentity`); a server on another one refuses. */
  database?: string;
}

export type AdminReply = { ok: true; output: string } | { ok: false; error: string };

export interface AdminLog {
  info: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
}

export interface AdminSocketServer {
  path: string;
  close: () => Promise<void>;
}

export function adminSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), ADMIN_SOCKET_FILE);
}

/**
 * Names a database without its credentials: `pglite` for the embedded one (the socket's
 * directory already says which), `postgres://host:port/name` otherwise. A shell with another
 * DATABASE_URL than the server's must not act on the server's database by mistake.
 */
export function databaseIdentity(databaseUrl: string | undefined): string {
  if (!databaseUrl) return 'pglite';
  const url = new URL(databaseUrl);
  return `postgres://${url.hostname}:${url.port || '5432'}${url.pathname === '/' ? '' : url.pathname}`;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}

/** Parses a request, or returns why it is not one. */
export function parseAdminRequest(text: string): AdminRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'the request is not JSON';
  }
  const request = value as Partial<AdminRequest> | null;
  if (typeof request !== 'object' || request === null || typeof request.command !== 'string')
    return 'the request names no command';
  if (!isStringRecord(request.options ?? {})) return 'options must be strings';
  const positionals = request.positionals ?? [];
  if (!Array.isArray(positionals) || !positionals.every((p) => typeof p === 'string'))
    return 'positionals must be strings';
  if (request.database !== undefined && typeof request.database !== 'string')
    return 'database must be a string';
  return {
    command: request.command,
    options: request.options ?? {},
    positionals,
    ...(request.database === undefined ? {} : { database: request.database }),
  };
}

/** Whether a server answers on `socketPath` (a connection is accepted). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Listens on `socketPath` and answers each request with `handle`. A socket file nobody answers
 * on is a crashed server's and is replaced. Returns undefined, after logging why, when another
 * live process already answers there (several processes on one PostgreSQL database may share
 * DATA_DIR, and any of them runs a command the same way) or the path is too long for a socket.
 */
export async function serveAdminSocket(
  socketPath: string,
  handle: (request: AdminRequest) => Promise<AdminReply>,
  log: AdminLog,
): Promise<AdminSocketServer | undefined> {
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    log.warn(
      { socketPath },
      'admin channel off: the path is too long for a Unix socket (use a shorter DATA_DIR); npm run ops cannot reach this server',
    );
    return undefined;
  }
  if (fs.existsSync(socketPath)) {
    if (await answers(socketPath)) {
      log.warn({ socketPath }, 'admin channel off: another process already answers on its socket');
      return undefined;
    }
    fs.rmSync(socketPath, { force: true });
  }

  // Half-open: the client ends its side after the request and still reads the reply.
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const reply = (message: AdminReply) => socket.end(`${JSON.stringify(message)}\n`);
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        socket.removeAllListeners('data');
        reply({ ok: false, error: `the request is larger than ${MAX_REQUEST_BYTES} bytes` });
        return;
      }
      chunks.push(chunk);
    });
    socket.on('end', () => {
      if (size > MAX_REQUEST_BYTES) return;
      // The command may run longer than a request may take to arrive.
      socket.setTimeout(0);
      const request = parseAdminRequest(Buffer.concat(chunks).toString('utf8'));
      if (typeof request === 'string') return reply({ ok: false, error: request });
      handle(request).then(reply, (error: unknown) =>
        reply({ ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
    });
  });
  server.maxConnections = MAX_CONNECTIONS;
  try {
    fs.mkdirSync(path.dirname(socketPath), { recursive: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // The server is still worth running without its channel; the CLI then says DATA_DIR is in use.
    log.warn({ socketPath, err: error }, 'admin channel off: cannot listen on its socket');
    return undefined;
  }
  // Connecting needs write permission on the socket, which the usual umask (022) already
  // withholds from others while this runs; 0600 also shuts out the group.
  fs.chmodSync(socketPath, 0o600);
  log.info({ socketPath }, 'admin channel listening');
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        // Waits for commands already running; Node removes the socket file once closed.
        server.close(() => {
          fs.rmSync(socketPath, { force: true });
          resolve();
        });
      }),
  };
}

/**
 * Sends `request` to the server on `socketPath` and resolves with its reply, or with undefined
 * when no server answers there (no socket file, or a crashed server's).
 */
export function askAdminSocket(
  socketPath: string,
  request: AdminRequest,
): Promise<AdminReply | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const chunks: Buffer[] = [];
    let size = 0;
    let connected = false;
    socket.once('connect', () => {
      connected = true;
      socket.end(JSON.stringify(request));
    });
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REPLY_BYTES)
        socket.destroy(new Error(`the server's reply is larger than ${MAX_REPLY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // ENOTSOCK/ENAMETOOLONG: DATA_DIR holds something else there, or the server could not listen either.
      if (
        !connected &&
        ['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENAMETOOLONG'].includes(error.code ?? '')
      )
        resolve(undefined);
      else reject(error);
    });
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(JSON.parse(text) as AdminReply);
      } catch {
        // The server closed without a reply: it was stopping, or the request was cut short.
        reject(new Error(`the server on ${socketPath} closed the connection without a reply`));
      }
    });
  });
}
