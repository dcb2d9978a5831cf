import { BlockList, isIP } from 'node:net';

/** True when `ip` equals an entry or lies inside an entry written as CIDR. IPv4-mapped IPv6 is unwrapped. */
export function ipAllowed(ip: string, whitelist: string[]): boolean {
  const addr = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const family = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  for (const entry of whitelist) {
    const [base, bits] = entry.trim().split('/');
    const fam = isIP(base) === 6 ? 'ipv6' : isIP(base) === 4 ? 'ipv4' : null;
    if (!fam) continue;
    if (bits === undefined) list.addAddress(base, fam);
    else list.addSubnet(base, Number(bits), fam);
  }
  return isIP(addr) !== 0 && list.check(addr, family);
}
