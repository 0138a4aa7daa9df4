import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AdminLog,
  type AdminRequest,
  adminSocketPath,
  askAdminSocket,
  databaseIdentity,
  serveAdminSocket,
} from '../src/platform/admin-socket.ts';

const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-sock-'));
  dirs.push(dir);
  return dir;
}

function recordingLog(): AdminLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (_object, message) => lines.push(message),
    warn: (_object, message) => lines.push(message),
  };
}

const echo = async (request: AdminRequest) => ({
  ok: true as const,
  output: `${request.command} ${request.positionals.join(' ')} ${JSON.stringify(request.options)}`,
});

async function serve(socketPath: string, log = recordingLog()) {
  const server = await serveAdminSocket(socketPath, echo, log);
  if (server) closers.push(server.close);
  return server;
}

/** Sends raw bytes and returns what comes back. */
function raw(socketPath: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () => socket.end(text));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}

describe('the admin socket', () => {
  it('answers one request per connection, only to its owner (mode 0600)', async () => {
    const socketPath = adminSocketPath(tempDir());
    await serve(socketPath);
    expect(fs.statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(
      await askAdminSocket(socketPath, {
        command: 'audit',
        options: { action: 'x' },
        positionals: ['a'],
      }),
    ).toEqual({ ok: true, output: 'audit a {"action":"x"}' });
    expect(
      await askAdminSocket(socketPath, { command: 'audit', options: {}, positionals: [] }),
    ).toEqual({ ok: true, output: 'audit  {}' });
  });

  it('with nobody listening the client learns there is no server', async () => {
    const dir = tempDir();
    expect(
      await askAdminSocket(adminSocketPath(dir), {
        command: 'audit',
        options: {},
        positionals: [],
      }),
    ).toBeUndefined();
  });

  it('a malformed request gets an error reply, not a crash', async () => {
    const socketPath = adminSocketPath(tempDir());
    await serve(socketPath);
    expect(JSON.parse(await raw(socketPath, 'not json'))).toEqual({
      ok: false,
      error: 'the request is not JSON',
    });
    expect(
      JSON.parse(await raw(socketPath, '{"command":"audit","options":{"operator":1}}')),
    ).toEqual({ ok: false, error: 'options must be strings' });
    expect(JSON.parse(await raw(socketPath, 'x'.repeat(70_000)))).toEqual({
      ok: false,
      error: 'the request is larger than 65536 bytes',
    });
    expect(
      await askAdminSocket(socketPath, { command: 'still', options: {}, positionals: [] }),
    ).toEqual({ ok: true, output: 'still  {}' });
  });

  it(
    "a crashed server's socket file is replaced; a live server's is left to it",
    { timeout: 30_000 },
    async () => {
      const socketPath = adminSocketPath(tempDir());
      // A process that listens and is killed leaves its socket file behind.
      const child = spawn(
        process.execPath,
        [
          '-e',
          `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('up'))`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise((resolve) => child.stdout.once('data', resolve));
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGKILL');
      });
      expect(fs.existsSync(socketPath)).toBe(true);
      expect(
        await askAdminSocket(socketPath, { command: 'audit', options: {}, positionals: [] }),
      ).toBeUndefined();

      const first = await serve(socketPath);
      expect(first).toBeDefined();
      const log = recordingLog();
      expect(await serve(socketPath, log)).toBeUndefined();
      expect(log.lines).toEqual([
        'admin channel off: another process already answers on its socket',
      ]);
      expect(
        await askAdminSocket(socketPath, { command: 'first', options: {}, positionals: [] }),
      ).toEqual({ ok: true, output: 'first  {}' });
    },
  );

  it('close stops listening and removes the socket file', async () => {
    const socketPath = adminSocketPath(tempDir());
    const server = await serveAdminSocket(socketPath, echo, recordingLog());
    await server?.close();
    expect(fs.existsSync(socketPath)).toBe(false);
    expect(
      await askAdminSocket(socketPath, { command: 'audit', options: {}, positionals: [] }),
    ).toBeUndefined();
  });

  it('a socket it cannot listen on turns the channel off with a warning instead of failing the server', async () => {
    const file = path.join(tempDir(), 'not-a-directory');
    fs.writeFileSync(file, '');
    const log = recordingLog();
    expect(await serveAdminSocket(adminSocketPath(file), echo, log)).toBeUndefined();
    expect(log.lines).toEqual(['admin channel off: cannot listen on its socket']);
  });

  it('names a database without its credentials', () => {
    expect(databaseIdentity(undefined)).toBe('pglite');
    expect(databaseIdentity('postgres://tw:secret@db.internal/tradewind')).toBe(
      'postgres://db.internal:5432/tradewind',
    );
    expect(databaseIdentity('postgresql://db.internal:6543/tradewind?sslmode=require')).toBe(
      'postgres://db.internal:6543/tradewind',
    );
  });
});
