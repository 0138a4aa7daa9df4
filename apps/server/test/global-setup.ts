import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openDatabase } from '../src/platform/db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDumpPath: string;
    pgTemplate: string;
  }
}

/**
 * Migrates once: on PostgreSQL (TEST_DATABASE_URL) into a template database that each
 * test file clones; on PGlite into a data-dir dump that each test file loads.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // One per project: the server's two projects (vitest.config.ts) set up side by side.
    const template = `tw_template_${process.pid}_${project.name.replace(/\W/g, '_')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const database = await openDatabase({ databaseUrl: withDatabase(url, template), poolSize: 2 });
    await database.migrate();
    await database.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteDumpPath', '');
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const database = await openDatabase({ dataDir: 'memory://' });
  await database.migrate();
  if (!database.dump) throw new Error('PGlite database without dump()');
  const dump = await database.dump();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-test-')), 'template.tar.gz');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteDumpPath', file);
  project.provide('pgTemplate', '');
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
