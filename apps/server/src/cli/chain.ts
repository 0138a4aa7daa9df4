// `npm run chain -- <command>`: drives the simulated TRON chain of a server running in demo
// mode. It talks to the server over HTTP (the demo-only /api/v1/dev/chain routes) because
// the embedded database can be open in one process only.
//
//   npm run chain -- send <address> <amount>   send USDT-TRC20 to an address (lands in the next block)
//   npm run chain -- mine <blocks>             move the chain forward, e.g. 19 to confirm at once
//   npm run chain -- height                    the current block number
//
// --server URL picks the server (default http://127.0.0.1:$PORT, PORT defaulting to 3000).

const USAGE = `usage:
  npm run chain -- send <address> <amount>   send USDT-TRC20 on the simulated chain
  npm run chain -- mine <blocks>             move the simulated chain forward (19 blocks confirm a USDT deposit)
  npm run chain -- height                    print the simulated block number
options: --server URL (default http://127.0.0.1:$PORT or :3000); the server must run with DEMO_MODE=true`;

interface Envelope {
  code: number;
  message: string;
  data: unknown;
  errors?: Record<string, string[]>;
}

async function call(
  server: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(`${server}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new Error(
      `no server at ${server}: start it with \`npm start\` (demo mode) or pass --server URL`,
    );
  }
  const envelope = (await response.json().catch(() => null)) as Envelope | null;
  if (!envelope) throw new Error(`${server} did not answer with JSON`);
  if (response.status === 404)
    throw new Error(`${server} has no simulated chain: is DEMO_MODE on?`);
  if (envelope.code !== 0) {
    const fields = Object.entries(envelope.errors ?? {}).map(
      ([field, messages]) => `${field}: ${messages.join(' ')}`,
    );
    throw new Error(fields.length > 0 ? fields.join('\n') : envelope.message);
  }
  return envelope.data as Record<string, unknown>;
}

async function main(argv: string[]): Promise<string> {
  const serverIndex = argv.indexOf('--server');
  const server =
    (serverIndex >= 0 ? argv[serverIndex + 1] : undefined) ??
    `http://127.0.0.1:${process.env.PORT || 3000}`;
  const args =
    serverIndex >= 0 ? argv.filter((_, i) => i !== serverIndex && i !== serverIndex + 1) : argv;
  const [command, ...rest] = args;
  switch (command) {
    case 'send': {
      const [address, amount] = rest;
      if (!address || !amount) throw new Error(USAGE);
      const sent = await call(server, 'POST', '/api/v1/dev/chain/transfer', { address, amount });
      return `sent ${String(sent.amount)} USDT to ${String(sent.address)}: txid ${String(sent.txid)}, block ${String(sent.blockNumber)}`;
    }
    case 'mine': {
      const blocks = Number(rest[0]);
      if (!Number.isInteger(blocks) || blocks < 1) throw new Error(USAGE);
      const mined = await call(server, 'POST', '/api/v1/dev/chain/mine', { blocks });
      return `block ${String(mined.blockNumber)}`;
    }
    case 'height':
      return `block ${String((await call(server, 'GET', '/api/v1/dev/chain/height')).blockNumber)}`;
    default:
      throw new Error(USAGE);
  }
}

main(process.argv.slice(2)).then(
  (output) => console.log(output),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
