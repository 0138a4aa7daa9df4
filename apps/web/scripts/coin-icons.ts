// Writes apps/web/src/ui/coins/<ASSET>.svg, one icon per wallet asset, from the maintained
// @web3icons/core set (MIT; its "background" token variant: the coin on its own colour, so it
// reads on the light and the dark theme alike). The files are bundled with the app and served
// by it, never hot-linked. After bumping @web3icons/core: `npm run coin-icons -w @tradewind/web`.
// A test (apps/web/test/coin-icons.test.ts) fails when a file differs from what this writes.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ASSET_CODES } from '@tradewind/contract/wallet';

const here = path.dirname(fileURLToPath(import.meta.url));
export const COINS_DIR = path.join(here, '../src/ui/coins');

/** Every wallet asset's icon file: name → contents. */
export async function coinIconFiles(): Promise<Map<string, string>> {
  const require = createRequire(import.meta.url);
  // dist/index.js → the package's own package.json (its exports do not list it).
  const manifest = path.join(path.dirname(require.resolve('@web3icons/core')), '../package.json');
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
  const files = new Map<string, string>();
  for (const asset of ASSET_CODES) {
    const module = (await import(`@web3icons/core/svgs/tokens/background/${asset}.svg.js`)) as {
      default: string;
    };
    const svg = module.default.replace(' class="web3icons"', '').trim();
    files.set(
      `${asset}.svg`,
      `<!-- ${asset}: @web3icons/core ${version}, tokens/background (MIT, https://github.com/0xa3k5/web3icons) -->\n${svg}\n`,
    );
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.mkdirSync(COINS_DIR, { recursive: true });
  for (const [name, contents] of await coinIconFiles())
    fs.writeFileSync(path.join(COINS_DIR, name), contents);
  console.log(`wrote ${ASSET_CODES.length} icons to ${path.relative(process.cwd(), COINS_DIR)}`);
}
