import path from 'node:path';
import type { Config } from '../config.ts';
import type { FileStore } from './file-store.ts';
import { LocalFileStore } from './local-file-store.ts';
import { S3FileStore } from './s3-file-store.ts';

/** The local folder `DATA_DIR/uploads`: the default, and the source of `npm run storage:migrate`. */
export function localUploadsDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'uploads');
}

/** The bucket when S3_* is configured, otherwise the local folder (nothing else to run). */
export function createFileStore(config: Pick<Config, 'dataDir' | 's3'>): FileStore {
  return config.s3 ? new S3FileStore(config.s3) : new LocalFileStore(localUploadsDir(config));
}
