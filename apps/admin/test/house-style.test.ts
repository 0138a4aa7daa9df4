import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** Every file under apps/admin/src, relative to it. */
function files(dir = src): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [path.relative(src, full)];
  });
}

const text = (file: string) => fs.readFileSync(path.join(src, file), 'utf8');
/** The operator API calls a file makes: `http.get('/kyc/queue'`, `http.post(`/ieo/…`…`. */
const calls = (file: string) => text(file).match(/\bhttp\.(get|post)(<[^>]*>)?\(/g) ?? [];

describe('the console’s house style (STYLE: one house, both apps)', () => {
  it('file and folder names are kebab-case, and there are no index.ts barrels', () => {
    const all = files();
    expect(all.length).toBeGreaterThan(50);
    expect(
      all.filter((file) =>
        file.split(path.sep).some((part) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z]+)*$/.test(part)),
      ),
    ).toEqual([]);
    expect(all.filter((file) => /(^|\/)index\.tsx?$/.test(file))).toEqual([]);
  });

  it('the operator API is called from api/ folders only, one endpoint per file', () => {
    const callers = files().filter((file) => calls(file).length > 0);
    expect(callers.length).toBeGreaterThan(40);
    expect(callers.filter((file) => !file.split(path.sep).includes('api'))).toEqual([]);
    expect(callers.filter((file) => calls(file).length > 1)).toEqual([]);
  });
});
