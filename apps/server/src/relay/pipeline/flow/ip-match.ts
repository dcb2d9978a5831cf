import { BlockList, isIP } from 'node:net';

/** One whitelist entry added to `list`; false when it cannot be read (rows saved before entries were checked). */
function addEntry(list: BlockList, entry: string): boolean {
  const [base, bits, extra] = entry.trim().split('/');
  const version = isIP(base);
  if (version === 0 || extra !== undefined) return false;
  const family = version === 6 ? 'ipv6' : 'ipv4';
  if (bits === undefined) {
    list.addAddress(base, family);
    return true;
  }
  const prefix = Number(bits);
  if (!/^\d{1,3}$/.test(bits) || prefix > (version === 6 ? 128 : 32)) return false;
  list.addSubnet(base, prefix, family);
  return true;
}

/**
 * True when `ip` equals an entry or lies inside an entry written as CIDR. IPv4-mapped IPv6 is
 * unwrapped. Unreadable entries are skipped: they match nothing and never fail the call.
 */
export function ipAllowed(ip: string, whitelist: string[]): boolean {
  const addr = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const version = isIP(addr);
  if (version === 0) return false;
  const list = new BlockList();
  for (const entry of whitelist) if (typeof entry === 'string') addEntry(list, entry);
  return list.check(addr, version === 6 ? 'ipv6' : 'ipv4');
}
