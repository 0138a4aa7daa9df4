// The embedded database (PGlite) is one process's memory over files: a second process that
// opens the same directory reads stale pages and, writing, corrupts it. Whoever opens
// DATA_DIR takes this lock first; the others stop before touching anything.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DATA_LOCK_FILE = 'tradewind.lock';

/** What the lock file holds: enough to tell the holder, and whether it is still alive. */
interface LockRecord {
  pid: number;
  /** The process's start in clock ticks since boot (Linux), so a reused pid does not pass for the holder. */
  startTicks: string | null;
  hostname: string;
  startedAt: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`DATA_DIR ${dataDir} is in use by process ${pid}; stop it or use the running server`);
    this.name = 'DataDirInUseError';
  }
}

export interface DataLock {
  path: string;
  /** The pid of the crashed holder whose lock this one replaced, for the boot log. */
  takenOverFrom: number | undefined;
  /** Removes the lock file if it is still this process's; safe to call more than once. */
  release: () => void;
}

/** The lock files this process holds: a second acquire in the same process fails like any other. */
const held = new Set<string>();

/** Field 22 of /proc/<pid>/stat, or null where there is no /proc (macOS) or no such process. */
function processStartTicks(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the recorded holder still runs. A container restarts its processes with the same
 * small pids, so a pid equal to ours (we do not hold the lock yet) or one whose start time
 * differs from the recorded one is a new process, and the lock is stale.
 */
function holderAlive(record: LockRecord): boolean {
  if (record.pid === process.pid) return false;
  if (!isAlive(record.pid)) return false;
  const startTicks = processStartTicks(record.pid);
  return record.startTicks === null || startTicks === null || startTicks === record.startTicks;
}

function readRecord(file: string): { text: string; record: LockRecord | undefined } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const record = JSON.parse(text) as LockRecord;
    return { text, record: Number.isInteger(record.pid) && record.pid > 0 ? record : undefined };
  } catch {
    // Files are linked in whole, so only a damaged disk leaves one unreadable: nobody holds it.
    return { text, record: undefined };
  }
}

/**
 * Creates `file` with `text`, or returns false if it exists. The text is written to a file of
 * our own first and linked into place, so nobody ever reads a lock half written (which would
 * look like a crashed holder's).
 */
function createWhole(file: string, text: string): boolean {
  const draft = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(draft, 'w', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

/**
 * Takes the lock on `dataDir` (created if missing) or throws DataDirInUseError naming the
 * live holder. A lock left by a process that died (kill -9, power cut) is taken over.
 */
export function acquireDataLock(dataDir: string): DataLock {
  const absolute = path.resolve(dataDir);
  const file = path.join(absolute, DATA_LOCK_FILE);
  if (held.has(file)) throw new DataDirInUseError(absolute, process.pid);
  fs.mkdirSync(absolute, { recursive: true });
  const mine: LockRecord = {
    pid: process.pid,
    startTicks: processStartTicks(process.pid),
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
  };
  const text = `${JSON.stringify(mine)}\n`;
  let takenOverFrom: number | undefined;

  // Each round either creates the file, finds a live holder, or clears a stale file; a few
  // rounds are enough unless other processes race for the same directory without end.
  for (let round = 0; round < 5; round++) {
    if (createWhole(file, text)) {
      held.add(file);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held.delete(file);
        process.off('exit', release);
        // Only our own file: never remove a lock another process took after ours was cleared.
        if (readRecord(file)?.text === text) fs.rmSync(file, { force: true });
      };
      // A process.exit() anywhere (a failed boot, the shutdown timeout) still frees the directory.
      process.on('exit', release);
      return { path: file, takenOverFrom, release };
    }
    const existing = readRecord(file);
    if (!existing) continue;
    if (existing.record && holderAlive(existing.record))
      throw new DataDirInUseError(absolute, existing.record.pid);
    // Move the stale file aside rather than delete it: if another process replaced it in the
    // meantime, what we moved is its live lock, and it goes back.
    const aside = `${file}.stale-${process.pid}`;
    try {
      fs.renameSync(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (readRecord(aside)?.text === existing.text) {
      takenOverFrom = existing.record?.pid ?? takenOverFrom;
    } else {
      try {
        fs.linkSync(aside, file);
      } catch {
        // A third process created a lock meanwhile; the next round reads whichever holds.
      }
    }
    fs.rmSync(aside, { force: true });
  }
  const last = readRecord(file)?.record;
  throw new DataDirInUseError(absolute, last?.pid ?? 0);
}
