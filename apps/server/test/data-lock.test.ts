import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA_LOCK_FILE, DataDirInUseError, acquireDataLock } from '../src/platform/data-lock.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const lockModule = path.join(root, 'apps/server/src/platform/data-lock.ts');

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-lock-'));
  dirs.push(dir);
  return dir;
}

const lockFile = (dir: string) => path.join(dir, DATA_LOCK_FILE);
const readLock = (dir: string) =>
  JSON.parse(fs.readFileSync(lockFile(dir), 'utf8')) as { pid: number; startTicks: string | null };

/** Another process that takes the lock on `dir` and keeps it until killed. */
async function holder(dir: string): Promise<ChildProcess> {
  const script = `const { acquireDataLock } = await import(${JSON.stringify(lockModule)}); acquireDataLock(process.argv[1]); console.log('held'); setInterval(() => {}, 60_000);`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script, dir],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('the DATA_DIR lock', () => {
  it(
    'a second process cannot take it while the first runs, and learns which process holds it',
    { timeout: 30_000 },
    async () => {
      const dir = tempDir();
      const first = await holder(dir);
      expect(() => acquireDataLock(dir)).toThrow(new DataDirInUseError(dir, first.pid as number));
      expect(() => acquireDataLock(dir)).toThrow(
        `DATA_DIR ${dir} is in use by process ${first.pid}; stop it or use the running server`,
      );
      // The refused process changed nothing: the holder's lock is still there.
      expect(readLock(dir).pid).toBe(first.pid);
      expect(fs.readdirSync(dir)).toEqual([DATA_LOCK_FILE]);
    },
  );

  it(
    'a lock left by a process killed with SIGKILL is taken over, naming the dead pid',
    { timeout: 30_000 },
    async () => {
      const dir = tempDir();
      const crashed = await holder(dir);
      await killed(crashed);
      expect(readLock(dir).pid).toBe(crashed.pid);

      const lock = acquireDataLock(dir);
      expect(lock.takenOverFrom).toBe(crashed.pid);
      expect(readLock(dir).pid).toBe(process.pid);
      expect(fs.readdirSync(dir)).toEqual([DATA_LOCK_FILE]);
      lock.release();
      expect(fs.existsSync(lockFile(dir))).toBe(false);
    },
  );

  it('the same process cannot take it twice; after release it can again', () => {
    const dir = tempDir();
    const lock = acquireDataLock(dir);
    expect(lock.takenOverFrom).toBeUndefined();
    expect(() => acquireDataLock(dir)).toThrow(`is in use by process ${process.pid}`);
    lock.release();
    lock.release();
    const again = acquireDataLock(dir);
    expect(again.takenOverFrom).toBeUndefined();
    again.release();
  });

  it('creates DATA_DIR when it does not exist yet', () => {
    const dir = path.join(tempDir(), 'fresh', 'data');
    const lock = acquireDataLock(dir);
    expect(readLock(dir).pid).toBe(process.pid);
    lock.release();
  });

  // A container restarts its processes with the same small pids: the pid alone proves nothing.
  it.runIf(fs.existsSync('/proc/self/stat'))(
    'a live pid that started after the lock was written is not its holder',
    () => {
      const dir = tempDir();
      const reused = process.ppid;
      fs.writeFileSync(
        lockFile(dir),
        JSON.stringify({
          pid: reused,
          startTicks: '1',
          hostname: os.hostname(),
          startedAt: new Date(0).toISOString(),
        }),
      );
      const lock = acquireDataLock(dir);
      expect(lock.takenOverFrom).toBe(reused);
      lock.release();
    },
  );

  it('a lock naming this very process (a restart that got the same pid) is stale', () => {
    const dir = tempDir();
    fs.writeFileSync(
      lockFile(dir),
      JSON.stringify({
        pid: process.pid,
        startTicks: '1',
        hostname: os.hostname(),
        startedAt: new Date(0).toISOString(),
      }),
    );
    const lock = acquireDataLock(dir);
    expect(lock.takenOverFrom).toBe(process.pid);
    expect(readLock(dir).startTicks).not.toBe('1');
    lock.release();
  });

  it('a damaged lock file holds nothing', () => {
    const dir = tempDir();
    fs.writeFileSync(lockFile(dir), '{"pid":');
    const lock = acquireDataLock(dir);
    expect(readLock(dir).pid).toBe(process.pid);
    lock.release();
  });

  it('release leaves alone a lock another process wrote after ours was removed', () => {
    const dir = tempDir();
    const lock = acquireDataLock(dir);
    const theirs = JSON.stringify({
      pid: process.ppid,
      startTicks: null,
      hostname: os.hostname(),
      startedAt: new Date().toISOString(),
    });
    fs.writeFileSync(lockFile(dir), theirs);
    lock.release();
    expect(fs.readFileSync(lockFile(dir), 'utf8')).toBe(theirs);
  });
});
