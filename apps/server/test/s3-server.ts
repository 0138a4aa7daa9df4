import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * A local server that speaks the S3 protocol (the npm package s3rver, files under a temporary
 * folder), started by the tests that need a bucket. It does not check signatures or bucket
 * policies: what it proves is the protocol, what the tests prove about privacy is our routes.
 */
export interface LocalS3 {
  /** The S3_* settings that point Tradewind at it. */
  env: Record<string, string>;
  bucket: string;
  endpoint: string;
  /** The object names in the bucket, sorted. */
  objects: () => string[];
  close: () => Promise<void>;
}

export async function startLocalS3(bucket = 'tradewind-test'): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    env: {
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    bucket,
    endpoint,
    // s3rver keeps each object as `<key>._S3rver_object` beside its metadata files.
    objects: () =>
      fs
        .readdirSync(path.join(directory, bucket), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('._S3rver_object'))
        .map((entry) =>
          path
            .relative(path.join(directory, bucket), path.join(entry.parentPath, entry.name))
            .replace(/\._S3rver_object$/, ''),
        )
        .sort(),
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
