import { isIPv6 } from 'node:net';

/**
 * The client a request is counted as by the per-address limits (failed keys, public reads,
 * registrations, daily capability requests): its IPv4 address, or the /64 network of an IPv6
 * address. One IPv6 host usually holds a whole /64 (2^64 addresses), so counting each address
 * alone would let it take as many as it likes. An IPv4 address written as IPv6
 * (`::ffff:192.0.2.7`) is that IPv4 address.
 */
export function clientOf(ip: string): string {
  if (!ip.includes(':')) return ip;
  const address = ip.split('%')[0] ?? ip;
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
