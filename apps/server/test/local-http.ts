import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP server standing in for an outside service: each request is kept and handed to `handle`, which a test swaps as it goes. */
export interface LocalHttp {
  url: string;
  requests: IncomingMessage[];
  handle: (request: IncomingMessage, response: ServerResponse) => void;
  close: () => Promise<void>;
}

export async function startLocalHttp(): Promise<LocalHttp> {
  const local: LocalHttp = {
    url: '',
    requests: [],
    handle: (_request, response) => response.writeHead(404).end(),
    close: async () => undefined,
  };
  const server: Server = createServer((request, response) => {
    local.requests.push(request);
    local.handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  local.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return local;
}
