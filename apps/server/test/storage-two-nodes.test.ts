import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  type TestApp,
  call,
  createTestApp,
  operatorToken,
  registerUser,
  testConfig,
} from './harness.ts';
import { type LocalS3, startLocalS3 } from './s3-server.ts';
import { pngImage, tempDataDir, upload } from './uploads.ts';

/**
 * Issue 30's first symptom: two API nodes on one database, a KYC image uploaded through
 * node 1 read 200 there and 404 on node 2, because each node kept uploads on its own disk.
 * With S3_* set both nodes read and write one private bucket.
 */

async function secondNode(t: TestApp, env: Record<string, string>): Promise<FastifyInstance> {
  const app = await buildApp({
    config: testConfig(env),
    database: t.database,
    clock: t.clock,
    logger: false,
  });
  await app.ready();
  return app;
}

async function storageKeyOf(t: TestApp, fileId: string): Promise<string> {
  const [row] = await queryRows<{ storage_key: string }>(
    t.database.db,
    sql`select storage_key from files where id = ${Number(fileId)}`,
  );
  return row?.storage_key ?? '';
}

function get(app: FastifyInstance, url: string, token?: string) {
  return app.inject({
    method: 'GET',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

describe('two nodes on one database and one bucket', () => {
  let s3: LocalS3;
  const diskA = tempDataDir();
  const diskB = tempDataDir();
  let t: TestApp;
  let nodeB: FastifyInstance;
  let owner: { token: string; uid: string };
  let fileId: string;
  let uploaded: Buffer;

  beforeAll(async () => {
    s3 = await startLocalS3();
    t = await createTestApp({ env: { ...s3.env, DATA_DIR: diskA.dir } });
    nodeB = await secondNode(t, { ...s3.env, DATA_DIR: diskB.dir });
    owner = await registerUser(t.app);
    const reply = await upload(t.app, owner.token, { purpose: 'kyc', data: await pngImage() });
    expect(reply.body.code).toBe(0);
    fileId = reply.body.data.id;
    const onA = await get(t.app, `/api/v1/files/content?id=${fileId}`, owner.token);
    expect(onA.statusCode).toBe(200);
    uploaded = onA.rawPayload;
  });
  afterAll(async () => {
    await nodeB.close();
    await t.close();
    await s3.close();
    diskA.remove();
    diskB.remove();
  });

  it('a KYC image uploaded through node 1 is read through node 2, byte for byte', async () => {
    const onB = await get(nodeB, `/api/v1/files/content?id=${fileId}`, owner.token);
    expect(onB.statusCode).toBe(200);
    expect(onB.headers['content-type']).toBe('image/jpeg');
    expect(onB.headers['cache-control']).toBe('private, no-store');
    expect(Number(onB.headers['content-length'])).toBe(uploaded.length);
    expect(onB.rawPayload.equals(uploaded)).toBe(true);
  });

  it('an operator reviews it on node 2', async () => {
    const { token } = await operatorToken(t, 'reviewer');
    const onB = await get(nodeB, `/api/admin/v1/files/content?id=${fileId}`, token);
    expect(onB.statusCode).toBe(200);
    expect(onB.rawPayload.equals(uploaded)).toBe(true);
  });

  it('the bytes are in the bucket, on neither node’s disk', async () => {
    const key = await storageKeyOf(t, fileId);
    expect(s3.objects()).toContain(`uploads/${key}`);
    expect(diskA.uploads()).toEqual([]);
    expect(diskB.uploads()).toEqual([]);
  });

  it('private stays private on every node: no session, another user, the public host', async () => {
    const key = await storageKeyOf(t, fileId);
    const other = await registerUser(t.app);
    for (const node of [t.app, nodeB]) {
      const anonymous = await call(node, 'GET', `/api/v1/files/content?id=${fileId}`);
      expect(anonymous.status).toBe(401);
      const stranger = await call(node, 'GET', `/api/v1/files/content?id=${fileId}`, {
        token: other.token,
      });
      expect(stranger.status).toBe(404);
      expect(stranger.response.rawPayload.includes(uploaded.subarray(0, 64))).toBe(false);
      const byName = await get(node, `/files/${key}.jpg`);
      expect(byName.statusCode).toBe(404);
      const userOnOperatorRoute = await call(
        node,
        'GET',
        `/api/admin/v1/files/content?id=${fileId}`,
        {
          token: owner.token,
        },
      );
      expect(userOnOperatorRoute.status).toBe(401);
    }
  });

  it('no reply names the bucket, the endpoint or the object', async () => {
    const key = await storageKeyOf(t, fileId);
    const again = await upload(nodeB, owner.token, { purpose: 'kyc', data: await pngImage() });
    const config = await call(nodeB, 'GET', '/api/v1/config');
    for (const body of [JSON.stringify(again.body), JSON.stringify(config.body)]) {
      expect(body).not.toContain(s3.bucket);
      expect(body).not.toContain(s3.endpoint);
      expect(body).not.toContain(key);
    }
  });

  it('a public avatar uploaded through node 2 is served by the image host on node 1', async () => {
    const avatar = await upload(nodeB, owner.token, { purpose: 'avatar', data: await pngImage() });
    expect(avatar.body.code).toBe(0);
    const profile = await call<{ avatar: string }>(nodeB, 'POST', '/api/v1/user/profile', {
      token: owner.token,
      body: { avatarFileId: avatar.body.data.id },
    });
    expect(profile.body.code).toBe(0);
    const served = await get(t.app, `/files/${profile.body.data.avatar}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect(Number(served.headers['content-length'])).toBe(avatar.body.data.size);
  });

  it('a file whose object is gone is NOT_FOUND, like any unknown file', async () => {
    const reply = await upload(t.app, owner.token, { purpose: 'kyc', data: await pngImage() });
    const key = await storageKeyOf(t, reply.body.data.id);
    await t.app.services.fileStore.delete(key);
    const onB = await call(nodeB, 'GET', `/api/v1/files/content?id=${reply.body.data.id}`, {
      token: owner.token,
    });
    expect(onB.status).toBe(404);
  });
});

describe('with no S3_* setting', () => {
  it('uploads stay on the local disk of the node that took them, as before', async () => {
    const diskA = tempDataDir();
    const diskB = tempDataDir();
    const t = await createTestApp({ env: { DATA_DIR: diskA.dir } });
    const nodeB = await secondNode(t, { DATA_DIR: diskB.dir });
    try {
      expect(t.app.services.config.s3).toBeNull();
      expect(t.app.services.fileStore.kind).toBe('local');
      const owner = await registerUser(t.app);
      const reply = await upload(t.app, owner.token, { purpose: 'kyc', data: await pngImage() });
      const key = await storageKeyOf(t, reply.body.data.id);
      expect(diskA.uploads()).toEqual([key]);
      expect(
        (await get(t.app, `/api/v1/files/content?id=${reply.body.data.id}`, owner.token))
          .statusCode,
      ).toBe(200);
      // Two nodes need the bucket: the default is one process.
      expect(
        (await get(nodeB, `/api/v1/files/content?id=${reply.body.data.id}`, owner.token))
          .statusCode,
      ).toBe(404);
    } finally {
      await nodeB.close();
      await t.close();
      diskA.remove();
      diskB.remove();
    }
  });
});

describe('S3_* settings', () => {
  const full = {
    S3_BUCKET: 'uploads-prod',
    S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'very-secret-key',
  };

  it('none set: no bucket', () => {
    expect(loadConfig({}).s3).toBeNull();
  });

  it('bucket and keys: AWS by region, virtual-hosted; an endpoint turns path style on', () => {
    expect(loadConfig(full).s3).toEqual({
      endpoint: undefined,
      region: 'us-east-1',
      bucket: 'uploads-prod',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'very-secret-key',
      forcePathStyle: false,
    });
    const minio = loadConfig({ ...full, S3_ENDPOINT: 'http://minio:9000/', S3_REGION: 'auto' }).s3;
    expect(minio).toMatchObject({
      endpoint: 'http://minio:9000',
      region: 'auto',
      forcePathStyle: true,
    });
    expect(
      loadConfig({ ...full, S3_ENDPOINT: 'https://r2.example', S3_FORCE_PATH_STYLE: 'false' }).s3
        ?.forcePathStyle,
    ).toBe(false);
  });

  it('half a configuration is refused at boot, naming what is missing', () => {
    const halves: [Record<string, string>, string][] = [
      [
        { S3_ENDPOINT: 'http://minio:9000' },
        'missing S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
      ],
      [{ S3_BUCKET: 'uploads-prod' }, 'missing S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY'],
      [{ ...full, S3_SECRET_ACCESS_KEY: '' }, 'missing S3_SECRET_ACCESS_KEY'],
      [{ S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' }, 'missing S3_BUCKET'],
    ];
    for (const [env, message] of halves) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });

  it('bad values are refused; keys are never echoed nor shown', () => {
    expect(() => loadConfig({ ...full, S3_BUCKET: 'Uploads_Prod' })).toThrow(
      /S3_BUCKET: must be a bucket name/,
    );
    expect(() => loadConfig({ ...full, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    const refused = (() => {
      try {
        loadConfig({ ...full, S3_ACCESS_KEY_ID: 'AKIA SPACE', S3_SECRET_ACCESS_KEY: ' ' });
      } catch (error) {
        return String(error);
      }
      return 'accepted';
    })();
    expect(refused).toContain('S3_SECRET_ACCESS_KEY');
    expect(refused).not.toContain('AKIA SPACE');
    const shown = loadConfig(full).settings.filter((s) => s.name.startsWith('S3_'));
    expect(shown.find((s) => s.name === 'S3_SECRET_ACCESS_KEY')).toMatchObject({
      value: '••••••',
      secret: true,
    });
    expect(shown.find((s) => s.name === 'S3_ACCESS_KEY_ID')).toMatchObject({
      value: '••••••',
      secret: true,
    });
    expect(shown.find((s) => s.name === 'S3_BUCKET')?.value).toBe('uploads-prod');
  });
});
