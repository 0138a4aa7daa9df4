import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type FileStore, type StoredFile, assertStorageKey } from './file-store.ts';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Files in a local folder (`DATA_DIR/uploads`), two-character fan-out, readable only by this user. */
export class LocalFileStore implements FileStore {
  readonly kind = 'local';

  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written beside and renamed: a reader never sees half a file.
    const temporary = `${file}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fs.writeFile(temporary, data, { mode: 0o600, flag: 'wx' });
    await fs.rename(temporary, file);
  }

  async open(key: string): Promise<StoredFile | undefined> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      return { body: handle.createReadStream({ autoClose: true }), size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await fs.stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async close(): Promise<void> {}
}
