import net, { type AddressInfo } from 'node:net';

/**
 * A TCP pass-through to NATS that a test can cut and make refuse: `cut` destroys every
 * connection through it, as a network fault or a NATS restart would, while the listener stays
 * up so the client can come back; `refuse(true)` also refuses new ones until `refuse(false)`.
 */
export async function cuttableProxy(target: URL): Promise<{
  url: string;
  cut: () => number;
  refuse: (on: boolean) => void;
  close: () => Promise<void>;
}> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let refusing = false;
  const server = net.createServer((inbound) => {
    if (refusing) {
      inbound.destroy();
      return;
    }
    const outbound = net.connect(Number(target.port || 4222), target.hostname);
    const pair: [net.Socket, net.Socket] = [inbound, outbound];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const cut = () => {
    const count = pairs.size;
    for (const [inbound, outbound] of [...pairs]) {
      inbound.destroy();
      outbound.destroy();
    }
    return count;
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    cut,
    refuse: (on: boolean) => {
      refusing = on;
      if (on) cut();
    },
    close: async () => {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
