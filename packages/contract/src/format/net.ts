const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return false;
  try {
    // The WHATWG URL parser validates IPv6 literals the same way in Node and browsers.
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

/** An IPv4/IPv6 address, or a CIDR range with a prefix that fits the family (`10.0.0.0/8`, `::1/128`). */
export function isIpOrCidr(text: string): boolean {
  const [base, bits, extra] = text.trim().split('/');
  if (extra !== undefined) return false;
  const max = IPV4.test(base) ? 32 : isIpv6(base) ? 128 : -1;
  if (max < 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
}

/** An absolute http(s) URL with a host. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
