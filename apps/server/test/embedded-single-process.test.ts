// One process per embedded database (issue 26), with real processes: the server, a second
// server, `npm run ops` and `npm run check:ledger`, all on one DATA_DIR.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type RunningServer,
  broadcastSocket,
  demoToken,
  killAll,
  messageTitles,
  root,
  runCli,
  spawnServer,
  startServer,
  stopServer,
} from './server-process.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-one-process-'));
const inUse = (dir: string, pid: number | undefined) =>
  `DATA_DIR ${dir} is in use by process ${pid}; stop it or use the running server`;

/** The embedded database, whatever the shell running the tests has set. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const vars: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    WEB_DIST: '/nonexistent',
    LOG_LEVEL: 'info',
    DEMO_MODE: 'true',
    ...extra,
  };
  delete vars.DATABASE_URL;
  return vars;
}

afterAll(() => {
  killAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const cli = (
  script: 'ops' | 'check-ledger',
  args: string[] = [],
  extra: Record<string, string> = {},
) => runCli(env({ LOG_LEVEL: 'silent', ...extra }), script, args);

const TITLE = 'Maintenance tonight at 22:00';

describe('one process per embedded database', () => {
  let first: RunningServer;
  let baseUrl: string;

  it(
    'npm run ops reaches the running server: a broadcast arrives live and in the messages, audited as the operator',
    { timeout: 120_000 },
    async () => {
      first = await startServer(env());
      baseUrl = first.baseUrl as string;
      const created = await cli('ops', [
        'create-operator',
        '--username',
        'night-ops',
        '--role',
        'admin',
        '--reason',
        'the first admin of this install',
      ]);
      expect(created.stderr).toBe('');
      expect(created.stdout).toMatch(/^operator night-ops \(#\d+, admin\) created; password: \S+/);
      expect(created.code).toBe(0);

      const token = await demoToken(baseUrl);
      const { socket, next } = await broadcastSocket(baseUrl, token);
      const sent = await cli('ops', [
        'messages:broadcast',
        '--title',
        TITLE,
        '--body',
        'Trading pauses for ten minutes.',
        '--operator',
        'night-ops',
        '--reason',
        'maintenance notice',
      ]);
      expect(sent.stdout).toMatch(/^broadcast #\d+ sent to \d+ users/);
      expect(sent.code).toBe(0);
      // Live: the server's own hub published it to the socket it holds.
      expect(await next()).toEqual({
        channel: 'messages.broadcast',
        data: { type: 'message.new', broadcast: true },
      });
      socket.close();
      expect(await messageTitles(baseUrl, token)).toContain(TITLE);

      const audit = await cli('ops', ['audit', '--action', 'message.broadcast']);
      // The operator named, and the shell account that ran the command (issue 29: who, CLI included).
      expect(audit.stdout).toMatch(
        / night-ops \(cli:[^)]+\) message\.broadcast message_broadcast#\d+/,
      );
      expect(audit.code).toBe(0);

      const refused = await cli('ops', ['messages:broadcast', '--title', 'x', '--body', 'y']);
      expect(refused.stderr.trim()).toBe('name an existing operator with --operator USERNAME');
      expect(refused.code).toBe(1);

      const ledger = await cli('check-ledger');
      expect(ledger.stdout).toContain('ledger ok');
      expect(ledger.code).toBe(0);
    },
  );

  it(
    'a second server on the same DATA_DIR exits within 10 s naming the first, which keeps serving',
    { timeout: 60_000 },
    async () => {
      const startedAt = Date.now();
      const second = spawnServer(env());
      expect(await second.exited).toBe(1);
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      expect(second.output().trim()).toBe(inUse(dataDir, first.child.pid));

      expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
      // Its lock and its channel are still its own.
      expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'tradewind.lock'), 'utf8')).pid).toBe(
        first.child.pid,
      );
      expect((await cli('ops', ['audit'])).stdout).toContain('message.broadcast');
    },
  );

  it(
    'a CLI finding the directory held by a process that does not answer exits with the same line and opens nothing',
    { timeout: 60_000 },
    async () => {
      // The server is still booting (it holds the lock, its channel is not up yet): stand in for it with a bare holder.
      const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-held-'));
      const script = `const { acquireDataLock } = await import(${JSON.stringify(path.join(root, 'apps/server/src/platform/data-lock.ts'))}); acquireDataLock(process.argv[1]); console.log('held'); setInterval(() => {}, 60_000);`;
      const holder = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, bare],
        { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        await new Promise((resolve) => holder.stdout.once('data', resolve));
        const line = `${inUse(bare, holder.pid)}\n`;
        expect(await cli('ops', ['audit'], { DATA_DIR: bare })).toEqual({
          code: 1,
          stdout: '',
          stderr: line,
        });
        expect(await cli('check-ledger', [], { DATA_DIR: bare })).toEqual({
          code: 1,
          stdout: '',
          stderr: line,
        });
        expect(fs.readdirSync(bare)).toEqual(['tradewind.lock']);
      } finally {
        holder.kill('SIGKILL');
        fs.rmSync(bare, { recursive: true, force: true });
      }
    },
  );

  it(
    'SIGTERM frees the directory, and what was written survives a restart',
    { timeout: 120_000 },
    async () => {
      expect(await stopServer(first, 'SIGTERM')).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'tradewind.lock'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'admin.sock'))).toBe(false);

      const again = await startServer(env());
      const againUrl = again.baseUrl as string;
      expect(again.output()).not.toContain('stale lock');
      expect(await messageTitles(againUrl, await demoToken(againUrl))).toContain(TITLE);
      expect((await cli('ops', ['audit', '--action', 'message.broadcast'])).stdout).toMatch(
        /night-ops \(cli:[^)]+\) message\.broadcast/,
      );

      // kill -9 leaves the lock and the socket behind; the next start clears both.
      await stopServer(again, 'SIGKILL');
      expect(fs.existsSync(path.join(dataDir, 'tradewind.lock'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'admin.sock'))).toBe(true);
      const afterCrash = await startServer(env());
      expect(afterCrash.output()).toContain(
        `removed a stale lock on ${dataDir} from process ${again.child.pid}, which is no longer running`,
      );
      expect((await fetch(`${afterCrash.baseUrl as string}/api/health`)).status).toBe(200);
      const audit = await cli('ops', ['audit', '--action', 'message.broadcast']);
      expect(audit.stdout).toMatch(/night-ops \(cli:[^)]+\) message\.broadcast/);
      expect(await stopServer(afterCrash, 'SIGTERM')).toBe(0);
    },
  );

  it(
    'with no server running npm run ops opens the directory itself and frees it after',
    { timeout: 60_000 },
    async () => {
      const audit = await cli('ops', ['audit', '--action', 'message.broadcast']);
      expect(audit.stdout).toMatch(/night-ops \(cli:[^)]+\) message\.broadcast/);
      expect(audit.code).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'tradewind.lock'))).toBe(false);
    },
  );
});
