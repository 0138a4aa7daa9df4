import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { loadConfig } from '../src/platform/config.ts';
import { openDatabase, queryRows } from '../src/platform/db.ts';
import { LocalFileStore } from '../src/platform/storage/local-file-store.ts';
import { migrateUploads } from '../src/platform/storage/migrate-uploads.ts';
import { S3FileStore } from '../src/platform/storage/s3-file-store.ts';
import { T0, type TestApp, call, createTestApp, registerUser, testConfig } from './harness.ts';
import { type LocalS3, startLocalS3 } from './s3-server.ts';
import { pngImage, tempDataDir, upload } from './uploads.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function keysOf(t: { database: TestApp['database'] }): Promise<Map<string, string>> {
  const rows = await queryRows<{ id: string; storage_key: string }>(
    t.database.db,
    sql`select id::text, storage_key from files order by id`,
  );
  return new Map(rows.map((row) => [row.id, row.storage_key]));
}

describe('copying local uploads into the bucket', () => {
  let s3: LocalS3;
  const disk = tempDataDir();
  let t: TestApp;
  let user: { token: string };
  const ids: string[] = [];
  beforeAll(async () => {
    s3 = await startLocalS3();
    t = await createTestApp({ env: { DATA_DIR: disk.dir } });
    user = await registerUser(t.app);
    for (const purpose of ['kyc', 'kyc', 'avatar', 'card_deposit', 'kyc']) {
      const reply = await upload(t.app, user.token, { purpose, data: await pngImage() });
      expect(reply.body.code).toBe(0);
      ids.push(reply.body.data.id);
    }
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
    disk.remove();
  });

  it('copies each file once; a second run copies nothing; what cannot be copied is named', async () => {
    const keys = await keysOf(t);
    const local = new LocalFileStore(path.join(disk.dir, 'uploads'));
    // One file lost from the disk, one changed on it since its upload.
    await local.delete(keys.get(ids[1]!)!);
    await local.put(keys.get(ids[3]!)!, Buffer.from('not what was uploaded'));
    const bucket = new S3FileStore(loadConfig(s3.env).s3!);

    const first = await migrateUploads(t.database.db, local, bucket);
    expect(first).toEqual({
      files: 5,
      copied: 3,
      alreadyThere: 0,
      missing: [ids[1]],
      corrupt: [ids[3]],
    });
    const copied = [ids[0], ids[2], ids[4]].map((id) => `uploads/${keys.get(id!)}`).sort();
    expect(s3.objects()).toEqual(copied);
    for (const id of [ids[0], ids[2], ids[4]]) {
      const key = keys.get(id!)!;
      expect((await bucket.get(key))?.equals((await local.get(key))!)).toBe(true);
    }

    const second = await migrateUploads(t.database.db, local, bucket);
    expect(second).toMatchObject({ files: 5, copied: 0, alreadyThere: 3 });
    expect(s3.objects()).toEqual(copied);
    // Nothing was taken from the local folder.
    expect(disk.uploads()).toHaveLength(4);
    await bucket.close();
  });

  it('after the copy a node on the bucket serves the old uploads', async () => {
    const elsewhere = tempDataDir();
    const nodeOnBucket = await buildApp({
      config: testConfig({ ...s3.env, DATA_DIR: elsewhere.dir }),
      database: t.database,
      clock: t.clock,
      logger: false,
    });
    await nodeOnBucket.ready();
    try {
      const copied = await nodeOnBucket.inject({
        method: 'GET',
        url: `/api/v1/files/content?id=${ids[0]}`,
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(copied.statusCode).toBe(200);
      expect(copied.headers['content-type']).toBe('image/jpeg');
      const lost = await call(nodeOnBucket, 'GET', `/api/v1/files/content?id=${ids[1]}`, {
        token: user.token,
      });
      expect(lost.status).toBe(404);
    } finally {
      await nodeOnBucket.close();
      elsewhere.remove();
    }
  });
});

/** Runs `npm run storage:migrate`'s script; resolves with its exit code and output. */
function migrateCli(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  delete childEnv.DATABASE_URL;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/cli/storage-migrate.ts'],
    { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('npm run storage:migrate', () => {
  // An embedded installation is a PGlite directory: the suite's PostgreSQL run has no dump to load one from.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'copies an embedded installation’s uploads into the bucket, twice without duplicates',
    { timeout: 120_000 },
    async () => {
      const s3 = await startLocalS3();
      const disk = tempDataDir();
      try {
        // A file database (the command is another process), loaded from the migrated template.
        const database = await openDatabase({
          dataDir: disk.dir,
          pgliteDump: new Blob([fs.readFileSync(inject('pgliteDumpPath'))]),
        });
        const clock = new ManualClock(T0);
        const app = await buildApp({
          config: testConfig({ DATA_DIR: disk.dir }),
          database,
          clock,
          logger: false,
        });
        await app.ready();
        const user = await registerUser(app);
        for (let i = 0; i < 3; i++)
          expect(
            (await upload(app, user.token, { purpose: 'kyc', data: await pngImage() })).body.code,
          ).toBe(0);
        const keys = [...(await keysOf({ database })).values()];
        await app.close();
        await database.close();

        const withoutBucket = await migrateCli({ DATA_DIR: disk.dir });
        expect(withoutBucket.code).toBe(2);
        expect(withoutBucket.output).toContain('set S3_BUCKET');

        const env = { ...s3.env, DATA_DIR: disk.dir };
        const first = await migrateCli(env);
        expect(first.output).toContain(
          '3 files: 3 copied to bucket tradewind-test, 0 already there, 0 missing, 0 corrupt',
        );
        expect(first.code).toBe(0);
        expect(s3.objects()).toEqual(keys.map((key) => `uploads/${key}`).sort());

        const second = await migrateCli(env);
        expect(second.output).toContain(
          '3 files: 0 copied to bucket tradewind-test, 3 already there, 0 missing, 0 corrupt',
        );
        expect(second.code).toBe(0);
        expect(s3.objects()).toHaveLength(3);
        expect(disk.uploads()).toHaveLength(3);
      } finally {
        await s3.close();
        fs.rmSync(disk.dir, { recursive: true, force: true });
      }
    },
  );
});
