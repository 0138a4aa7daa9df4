import type { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import { type FileStore, type StoredFile, assertStorageKey } from './file-store.ts';

/** What the S3 store needs: config.ts builds it from the S3_* settings. */
export interface S3Settings {
  /** Unset: AWS itself, by region. Set: MinIO, R2, Ceph, … (`https://…` or `http://…`). */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key`: what MinIO and most local servers need. */
  forcePathStyle: boolean;
}

/** Every object this store writes sits under this prefix, so a bucket can hold other things too. */
export const S3_KEY_PREFIX = 'uploads/';

/** A connection that does not open in this long, or a request that stalls this long, fails (the SDK retries twice). */
const CONNECTION_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 30_000;

type Sdk = typeof S3Sdk;

/** No object under the key. A missing bucket is a configuration error, never a missing file. */
function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e.name === 'NoSuchBucket') return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/**
 * Files as objects in one S3-compatible bucket, through the AWS SDK v3 client (AWS, MinIO,
 * R2 and the rest speak the same protocol). The bucket stays private: every read goes
 * through this process with the configured keys, so a file is served only by the routes
 * that check who asks (files-routes.ts); no object is ever given a public address.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  readonly bucket: string;
  private connection: Promise<{ sdk: Sdk; client: S3Sdk.S3Client }> | undefined;

  constructor(private readonly settings: S3Settings) {
    this.bucket = settings.bucket;
  }

  /**
   * The SDK is loaded on first use, like sharp (images.ts): a process on the local default
   * never loads it, and one on a bucket pays for it once.
   */
  private connect(): Promise<{ sdk: Sdk; client: S3Sdk.S3Client }> {
    const settings = this.settings;
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
        region: settings.region,
        forcePathStyle: settings.forcePathStyle,
        credentials: {
          accessKeyId: settings.accessKeyId,
          secretAccessKey: settings.secretAccessKey,
        },
        requestHandler: {
          connectionTimeout: CONNECTION_TIMEOUT_MS,
          requestTimeout: REQUEST_TIMEOUT_MS,
        },
      }),
    }));
    return this.connection;
  }

  /** The object's name in the bucket. */
  objectKey(key: string): string {
    assertStorageKey(key);
    return `${S3_KEY_PREFIX}${key}`;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: data,
        ContentLength: data.length,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async open(key: string): Promise<StoredFile | undefined> {
    const { sdk, client } = await this.connect();
    try {
      const reply = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      if (!reply.Body || reply.ContentLength === undefined)
        throw new Error(`S3 GetObject for ${key} returned no body or length`);
      // In Node the SDK's body is the HTTP response itself, a Readable.
      return { body: reply.Body as Readable, size: reply.ContentLength };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    const file = await this.open(key);
    if (!file) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async exists(key: string): Promise<boolean> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(
        new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
    );
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    if (connection) (await connection).client.destroy();
  }
}
