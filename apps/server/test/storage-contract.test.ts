import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.ts';
import { createFileStore } from '../src/platform/storage/create-file-store.ts';
import { type FileStore, newStorageKey } from '../src/platform/storage/file-store.ts';
import { LocalFileStore } from '../src/platform/storage/local-file-store.ts';
import { S3FileStore } from '../src/platform/storage/s3-file-store.ts';
import { type LocalS3, startLocalS3 } from './s3-server.ts';
import { tempDataDir } from './uploads.ts';

async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let s3: LocalS3;
const data = tempDataDir();
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3.close();
  data.remove();
});

/** The same promises, kept by each store: the files module knows nothing else of them. */
describe.each([
  { kind: 'local', make: (): FileStore => new LocalFileStore(`${data.dir}/uploads`) },
  { kind: 's3', make: (): FileStore => createFileStore(loadConfig(s3.env)) },
])('the $kind file store', ({ kind, make }) => {
  let store: FileStore;
  beforeAll(() => {
    store = make();
  });
  afterAll(() => store.close());

  it('is the one configuration chooses', () => {
    expect(store.kind).toBe(kind);
  });

  it('gives back the bytes it was given, whole and as a stream with their length', async () => {
    const key = newStorageKey();
    const bytes = crypto.randomBytes(200_000);
    await store.put(key, bytes);
    expect((await store.get(key))?.equals(bytes)).toBe(true);
    const opened = await store.open(key);
    expect(opened?.size).toBe(bytes.length);
    expect((await readAll(opened!.body)).equals(bytes)).toBe(true);
  });

  it('knows what it holds: exists, then not after delete', async () => {
    const key = newStorageKey();
    expect(await store.exists(key)).toBe(false);
    await store.put(key, Buffer.from('jpeg bytes'));
    expect(await store.exists(key)).toBe(true);
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    expect(await store.get(key)).toBeUndefined();
    expect(await store.open(key)).toBeUndefined();
  });

  it('deleting a key that holds nothing is not an error', async () => {
    await expect(store.delete(newStorageKey())).resolves.toBeUndefined();
  });

  it('a put replaces what the key held', async () => {
    const key = newStorageKey();
    await store.put(key, Buffer.from('first'));
    await store.put(key, Buffer.from('second'));
    expect((await store.get(key))?.toString()).toBe('second');
  });

  it('keeps many files apart under concurrent writes', async () => {
    const items = Array.from({ length: 12 }, () => ({
      key: newStorageKey(),
      bytes: crypto.randomBytes(1 + crypto.randomInt(40_000)),
    }));
    await Promise.all(items.map((item) => store.put(item.key, item.bytes)));
    const back = await Promise.all(items.map((item) => store.get(item.key)));
    back.forEach((bytes, i) => expect(bytes?.equals(items[i]!.bytes)).toBe(true));
  });

  it('refuses a key that is not one of ours (a path or object name is built from it)', async () => {
    for (const key of [
      '../../etc/passwd',
      'ab/../../x',
      '',
      'A'.repeat(48),
      `${newStorageKey()}/x`,
    ]) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/invalid storage key/);
      await expect(store.open(key)).rejects.toThrow(/invalid storage key/);
      await expect(store.exists(key)).rejects.toThrow(/invalid storage key/);
      await expect(store.delete(key)).rejects.toThrow(/invalid storage key/);
    }
  });
});

describe('the S3 store in the bucket', () => {
  it('writes each file as one object under uploads/', async () => {
    const store = new S3FileStore(loadConfig(s3.env).s3!);
    const key = newStorageKey();
    await store.put(key, Buffer.from('one'));
    await store.put(key, Buffer.from('two'));
    expect(s3.objects().filter((name) => name.includes(key))).toEqual([`uploads/${key}`]);
    await store.close();
  });

  it('a bucket that does not exist is an error, never a missing file', async () => {
    const store = new S3FileStore({ ...loadConfig(s3.env).s3!, bucket: 'no-such-bucket' });
    await expect(store.open(newStorageKey())).rejects.toThrow();
    await expect(store.put(newStorageKey(), Buffer.from('x'))).rejects.toThrow();
    await store.close();
  });

  it('an unreachable endpoint is an error, never a missing file', async () => {
    const store = new S3FileStore({
      ...loadConfig(s3.env).s3!,
      endpoint: 'http://127.0.0.1:9',
    });
    await expect(store.exists(newStorageKey())).rejects.toThrow();
    await expect(store.open(newStorageKey())).rejects.toThrow();
    await store.close();
  });
});
