import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless the `webhook_private_addresses` setting allows them: a
 * subscription must not become a way into the service's own network (loopback, private ranges,
 * link-local and cloud metadata, unique-local IPv6, and the unspecified and multicast ranges).
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? PRIVATE.check(mapped[1]!, 'ipv4') : PRIVATE.check(address, 'ipv6');
}

export class RefusedAddress extends Error {}

/**
 * The address a delivery connects to, resolved now (not when the subscription was made), so that a
 * name later pointed at an internal address is refused; the connection then uses this address,
 * not a second lookup.
 */
export async function deliveryAddress(
  hostname: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const resolved = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  if (!resolved.length) throw new RefusedAddress(`${hostname} has no address`);
  const refused = resolved.find((r) => isPrivateAddress(r.address));
  if (refused && !allowPrivate)
    throw new RefusedAddress(`${hostname} resolves to ${refused.address}, a private address`);
  return resolved[0]!;
}
