import crypto from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * Where uploaded bytes live. The files module (files.ts) knows only this interface: who may
 * read a file is decided by its row in `files`, never by the store. Two implementations: a
 * local folder (the default, `local-file-store.ts`) and an S3-compatible bucket
 * (`s3-file-store.ts`), chosen by configuration (`create-file-store.ts`).
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Stores the bytes under the key, replacing whatever was there. */
  put(key: string, data: Buffer): Promise<void>;
  /** The bytes as a stream with their length, or undefined when nothing is stored under the key. */
  open(key: string): Promise<StoredFile | undefined>;
  /** The whole file in memory, or undefined when nothing is stored under the key. */
  get(key: string): Promise<Buffer | undefined>;
  exists(key: string): Promise<boolean>;
  /** Removes the key; removing a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections; the store is not used afterwards. */
  close(): Promise<void>;
}

export interface StoredFile {
  body: Readable;
  size: number;
}

const KEY_PATTERN = /^[0-9a-f]{48}$/;

/** 192 random bits, hex: a name nobody can guess, safe in any path or object key. */
export function newStorageKey(): string {
  return crypto.randomBytes(24).toString('hex');
}

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Keys come from our own rows, but a path or an object name is built from them: refuse anything else. */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
}
