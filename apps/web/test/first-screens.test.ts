import { MESSAGE_KINDS } from '@tradewind/contract/messages';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type Catalogue,
  FIRST_SCREEN_NAMESPACES,
  FIRST_SCREEN_PAGES,
  localeFiles,
  localeParts,
  mergeInto,
} from '@/lib/first-screens.ts';

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(web, 'src');
const contract = path.join(web, '../../packages/contract/src');

/** The modules the first screens run: what the entry and the pages of /Login and / import, not what they load later. */
const FIRST_SCREENS = [
  path.join(src, 'main.tsx'),
  ...Object.values(FIRST_SCREEN_PAGES)
    .flat()
    .map((file) => path.join(web, file)),
];

function resolveImport(from: string, specifier: string): string | undefined {
  let file: string;
  if (specifier.startsWith('@/')) file = path.join(src, specifier.slice(2));
  else if (specifier.startsWith('@tradewind/contract/'))
    file = path.join(contract, `${specifier.slice('@tradewind/contract/'.length)}.ts`);
  else if (specifier.startsWith('.')) file = path.resolve(path.dirname(from), specifier);
  else return undefined;
  return /\.tsx?$/.test(file) && fs.existsSync(file) ? file : undefined;
}

/** Every module reachable by static, non-type imports. */
function staticGraph(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const code = fs.readFileSync(file, 'utf8');
    for (const [, specifier] of code.matchAll(
      /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm,
    )) {
      const target = resolveImport(file, specifier as string);
      if (target) queue.push(target);
    }
  }
  return seen;
}

function readCatalogue(file: string): Catalogue {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Catalogue;
}

/** The English messages, merged as the build merges them. */
function englishCatalogue(): Catalogue {
  return localeFiles('en').reduce(
    (catalogue, file) => mergeInto(catalogue, readCatalogue(file)),
    {} as Catalogue,
  );
}

/** Whether `key` (or, for a template literal's fixed start, that prefix) names messages of the catalogue. */
function isMessageKey(catalogue: Catalogue, key: string): boolean {
  let node: unknown = catalogue;
  for (const part of key.split('.').filter(Boolean)) {
    if (typeof node !== 'object' || node === null || !(part in node)) return false;
    node = (node as Catalogue)[part];
  }
  return true;
}

const KINDS: ReadonlySet<string> = new Set(MESSAGE_KINDS);

describe('the first screens’ messages', () => {
  it('hold every namespace the first screens translate with', () => {
    const catalogue = englishCatalogue();
    const graph = staticGraph(FIRST_SCREENS);
    // The walk reaches the pages' own parts and the contract's rules, and stops at the lazy pages.
    expect([...graph].some((file) => file.endsWith('quote-list.tsx'))).toBe(true);
    expect([...graph].some((file) => file.endsWith('wallet-page.tsx'))).toBe(false);
    for (const file of FIRST_SCREENS) expect(fs.existsSync(file)).toBe(true);
    const used = new Map<string, string>();
    for (const file of graph) {
      // 'auth.login', or `security.result.${…}` up to its placeholder.
      for (const [, key] of fs
        .readFileSync(file, 'utf8')
        .matchAll(/['"`]([a-z_]+(?:\.\w+)+\.?)(?=['"`]|\$\{)/g)) {
        // A message kind (`ieo.subscribed`, contract/messages.ts) names a kind, not a message
        // the screen translates, even where a feature's catalogue has a key of the same name.
        if (key && !KINDS.has(key) && isMessageKey(catalogue, key))
          used.set(key.split('.')[0] as string, path.relative(web, file));
      }
    }
    expect(used.size).toBeGreaterThan(8);
    const missing = [...used].filter(([namespace]) => !FIRST_SCREEN_NAMESPACES.has(namespace));
    expect(missing).toEqual([]);
  });

  it('split a catalogue by namespace, and leave out what only the server writes', () => {
    const catalogue = {
      auth: { login: 'Sign in' },
      wallet: { title: 'Wallet' },
      notify: { code: 'Your code' },
      messages: { templates: { settled: '…' }, kind: { system: 'System' } },
    };
    const { first, rest } = localeParts(catalogue);
    expect(first).toEqual({ auth: { login: 'Sign in' }, messages: { kind: { system: 'System' } } });
    expect(rest).toEqual({ wallet: { title: 'Wallet' } });
  });
});
