import * as ipaddr from 'ipaddr.js';

/** How a refused range reads in a refusal ("… resolves to 10.0.0.5, a private address"). */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique-local address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

export interface AddressClass {
  /** The address as it is connected to (IPv4-mapped IPv6 as the IPv4 address it maps). */
  address: string;
  family: 4 | 6;
  /** ipaddr.js's range: only `unicast` is reachable from a box. */
  range: string;
  /** Why no box may reach it, or null for a public unicast address. */
  refusal: string | null;
}

/**
 * Classifies an address literal. Only globally routable unicast passes: loopback, private,
 * link-local (the metadata address 169.254.169.254 named as such), CGNAT, unique-local,
 * unspecified, multicast, broadcast, reserved and every transition range (6to4, Teredo,
 * NAT64, which can embed any of those) are refused, and an IPv4-mapped IPv6 address is
 * judged as the IPv4 address it maps. null: not an address literal.
 */
export function classifyAddress(text: string): AddressClass | null {
  const literal = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(literal)) return null;
  // Only canonical forms: `0x7f.1` or `127.1` are addresses to ipaddr.js, never names here.
  if (ipaddr.IPv4.isValid(literal) && !ipaddr.IPv4.isValidFourPartDecimal(literal)) return null;
  const ip = ipaddr.process(literal);
  const address = ip.toString();
  const family = ip.kind() === 'ipv4' ? 4 : 6;
  const range = ip.range();
  if (range === 'unicast') return { address, family, range, refusal: null };
  const refusal =
    address === '169.254.169.254'
      ? 'the cloud metadata address'
      : (RANGE_NAMES[range] ?? `a special-purpose address (${range})`);
  return { address, family, range, refusal };
}

/** True for an address this machine answers on without a route: the control plane's own. */
export function isLocalAddress(c: AddressClass, interfaces: ReadonlySet<string>): boolean {
  return c.range === 'loopback' || c.range === 'unspecified' || interfaces.has(c.address);
}
