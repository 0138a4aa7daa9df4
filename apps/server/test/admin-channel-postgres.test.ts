// The admin channel on PostgreSQL (TEST_DATABASE_URL): several processes may share one
// DATA_DIR there, so there is no lock, and the first process up answers `npm run ops`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from './global-setup.ts';
import {
  type RunningServer,
  broadcastSocket,
  demoToken,
  killAll,
  messageTitles,
  runCli,
  startServer,
  stopServer,
} from './server-process.ts';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('npm run ops against servers on PostgreSQL', () => {
  const name = `tw_admin_channel_${process.pid}`;
  const databaseUrl = url ? withDatabase(url, name) : '';
  // Made in beforeAll: a skipped describe still runs its body, but not its hooks.
  let dataDir = '';
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    WEB_DIST: '/nonexistent',
    LOG_LEVEL: 'info',
    DEMO_MODE: 'true',
    ...extra,
  });
  let api: RunningServer;
  let worker: RunningServer;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-pg-channel-'));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    await admin.end();
    api = await startServer(env({ ROLE: 'api' }));
    worker = await startServer(env({ ROLE: 'worker', WORKER_PORT: '0' }));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([api, worker].filter(Boolean).map((server) => stopServer(server, 'SIGTERM')));
    killAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }, 60_000);

  it('two processes share DATA_DIR without a lock; the first answers, the second leaves it the channel', () => {
    expect(api.output()).toContain('"msg":"admin channel listening"');
    expect(worker.output()).toContain(
      '"msg":"admin channel off: another process already answers on its socket"',
    );
    expect(fs.existsSync(path.join(dataDir, 'tradewind.lock'))).toBe(false);
  });

  it(
    'a broadcast through the channel reaches a signed-in socket live and is audited',
    { timeout: 60_000 },
    async () => {
      const cli = (args: string[], extra: Record<string, string> = {}) =>
        runCli(env({ LOG_LEVEL: 'silent', ...extra }), 'ops', args);
      const created = await cli([
        'create-operator',
        '--username',
        'pg-ops',
        '--role',
        'admin',
        '--reason',
        'the first admin of this install',
      ]);
      expect(created.code, created.stderr).toBe(0);
      const baseUrl = api.baseUrl as string;
      const token = await demoToken(baseUrl);
      const { socket, next } = await broadcastSocket(baseUrl, token);
      const sent = await cli([
        'messages:broadcast',
        '--title',
        'From the shell',
        '--body',
        'Hello',
        '--operator',
        'pg-ops',
        '--reason',
        'a notice from the shell',
      ]);
      expect(sent.stdout).toMatch(/^broadcast #\d+ sent to \d+ users/);
      expect(await next()).toEqual({
        channel: 'messages.broadcast',
        data: { type: 'message.new', broadcast: true },
      });
      socket.close();
      expect(await messageTitles(baseUrl, token)).toContain('From the shell');
      expect(api.output()).toContain(
        '"command":"messages:broadcast","operator":"pg-ops","ok":true',
      );
      expect((await cli(['audit'])).stdout).toMatch(
        / pg-ops \(cli:[^)]+\) message\.broadcast message_broadcast#\d+/,
      );
    },
  );

  it(
    "a shell set for another database is refused rather than acting on the server's",
    { timeout: 60_000 },
    async () => {
      const other = withDatabase(url as string, 'somewhere_else');
      const refused = await runCli(env({ LOG_LEVEL: 'silent', DATABASE_URL: other }), 'ops', [
        'audit',
      ]);
      expect(refused.stderr).toContain(`the server on this DATA_DIR uses postgres://`);
      expect(refused.stderr).toContain(`/${name}, not postgres://`);
      expect(refused.code).toBe(1);
      const embedded = await runCli({ ...env({ LOG_LEVEL: 'silent' }), DATABASE_URL: '' }, 'ops', [
        'audit',
      ]);
      expect(embedded.stderr).toContain(', not pglite:');
      expect(embedded.code).toBe(1);
    },
  );
});
