import net from 'node:net';

/**
 * Which proxies' `X-Forwarded-For` the server believes, in a form Fastify's `trustProxy`
 * takes: false (none: the peer's address is the client's), a hop count (the last N addresses
 * are proxies), or the proxies' addresses and CIDRs (addresses are read from the right and
 * the first one not in the list is the client).
 */
export type TrustProxy = false | number | string[];

/** The names proxy-addr gives to well-known ranges (127.0.0.1/8 and ::1, …). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 20;

function isAddressOrCidr(value: string): boolean {
  if (RANGE_NAMES.has(value)) return true;
  const slash = value.indexOf('/');
  if (slash < 0) return net.isIP(value) !== 0;
  const address = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  const family = net.isIP(address);
  if (family === 0) return false;
  // A mask may also be written as an address (255.255.255.0), as proxy-addr allows.
  if (family === 4 && net.isIPv4(bits)) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Reads TRUST_PROXY: `false` (or unset, `0`, `no`), a hop count, or a comma-separated list of
 * addresses and CIDRs. Returns the setting, or the line that says what is wrong with it.
 * `true` is refused: it trusts the left-most address, which any client writes itself, so
 * per-address limits would count whatever address a client chose.
 */
export function parseTrustProxy(
  raw: string,
): { ok: true; value: TrustProxy } | { ok: false; problem: string } {
  const value = raw.trim();
  if (value === '' || value === 'false' || value === 'no' || value === '0')
    return { ok: true, value: false };
  if (value === 'true' || value === 'yes')
    return {
      ok: false,
      problem:
        'true would trust any X-Forwarded-For a client writes; set the number of proxies in front of the server (e.g. 1 for one load balancer) or their addresses/CIDRs (e.g. 10.0.0.0/8,127.0.0.1)',
    };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_HOPS) return { ok: false, problem: `must be at most ${MAX_HOPS} proxies` };
    return { ok: true, value: hops };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (bad.length > 0)
    return {
      ok: false,
      problem: `must be a number of proxies or a comma-separated list of proxy addresses/CIDRs (not an address: ${bad.map((entry) => JSON.stringify(entry)).join(', ')})`,
    };
  return { ok: true, value: entries };
}

/**
 * The setting as Fastify's options take it: a hop count becomes the function Fastify would
 * make of it (its types list no number), trusting the N addresses nearest the server.
 */
export function fastifyTrustProxy(
  value: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (_address, hop) => hop < value;
}
