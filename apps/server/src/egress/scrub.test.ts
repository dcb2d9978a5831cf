import { describe, expect, it } from 'vitest';
import { scrubHosts, scrubKeys, scrubText, secretsOf } from './scrub.js';

/** [text, what must be gone] — upstream error texts seen in the wild, or shaped like them. */
const LEAKS: Array<[string, string]> = [
  ['backend 10.1.2.3:8000 (internal-llm.corp.local) failed', '10.1.2.3'],
  ['backend 10.1.2.3:8000 (internal-llm.corp.local) failed', 'internal-llm.corp.local'],
  ['backend 10.1.2.3:8000 failed', '8000'],
  ['connect ECONNREFUSED 127.0.0.1:41234', '127.0.0.1'],
  ['connect ECONNREFUSED 127.0.0.1:41234', '41234'],
  ['connect ETIMEDOUT 10.0.0.5:443', '10.0.0.5'],
  ['getaddrinfo ENOTFOUND internal-llm.corp.local', 'internal-llm.corp.local'],
  ['getaddrinfo EAI_AGAIN mj.internal', 'mj.internal'],
  ['request to https://api.openai.com/v1/chat failed', 'api.openai.com'],
  ['request to http://127.0.0.1:3000/v1/videos failed', '127.0.0.1'],
  ['wss://realtime.corp.example.com/v1/realtime closed', 'realtime.corp.example.com'],
  ['upstream http://[::1]:8080/x refused', '::1'],
  ['listening on [2001:db8::7]:443', '2001:db8::7'],
  ['connect ECONNREFUSED ::1:8080', '::1'],
  ['address fe80::1%eth0 unreachable', 'fe80::1'],
  ['from 2001:0db8:85a3:0000:0000:8a2e:0370:7334', '2001:0db8:85a3'],
  ['mapped ::ffff:10.9.8.7 refused', '10.9.8.7'],
  ['host internal-llm.corp.local', 'internal-llm.corp.local'],
  ['Host: api.internal:9000', 'api.internal'],
  ['proxy squid.lan:3128 denied', 'squid.lan'],
  ['dial tcp mj-backend:8000: connection refused', 'mj-backend'],
  ['localhost:11434 not answering', 'localhost'],
  ['localhost:11434 not answering', '11434'],
  ['service llm.svc.cluster.local timed out', 'llm.svc.cluster.local'],
  ['Upstream AZURE-EAST.openai.azure.com said no', 'openai.azure.com'],
  ['gateway gw-01.prod.example.net error', 'example.net'],
  ['region eu.api.example.de overloaded', 'example.de'],
  ['node 192.168.1.20 down', '192.168.1.20'],
  ['node 172.16.0.9, retry', '172.16.0.9'],
  ['at 8.8.8.8.', '8.8.8.8'],
  ['via socks5://10.2.2.2:1080', '10.2.2.2'],
  ['redis://cache.internal:6379/0 unreachable', 'cache.internal'],
  ['"base_url":"http://10.1.2.3:8000/v1"', '10.1.2.3'],
  ['{"error":"upstream internal-llm.corp.local:8443 busy"}', 'internal-llm.corp.local'],
  ['certificate for *.corp.local does not match', 'corp.local'],
  ['TLS handshake with llm.xn--fiqs8s failed', 'xn--fiqs8s'],
  ['上游 internal-llm.corp.local 无响应', 'internal-llm.corp.local'],
  ['请求上游地址失败: connect ECONNREFUSED 127.0.0.1:5000', '127.0.0.1'],
  ['连接 10.1.2.3:8000。', '10.1.2.3'],
  ['email ops@corp.example.com for help', 'corp.example.com'],
  ['GET https://cdn.discordapp.com/attachments/1/2.png 404', 'discordapp.com'],
  ['listening on port 41234', '41234'],
  ['upstream api.deepseek.com:443 reset', 'api.deepseek.com'],
  ['api.x.ai rate limited', 'api.x.ai'],
  ['gpu-box.local refused', 'gpu-box.local'],
  ['upstream KLING.CORP.LOCAL failed', 'KLING.CORP.LOCAL'],
  ['server 100.64.0.1:9999 gone', '100.64.0.1'],
  ['(10.1.2.3)', '10.1.2.3'],
  ['ws://127.0.0.1:41234/v1/realtime?model=x', '127.0.0.1'],
  ['https://user:pw@db.internal/path', 'db.internal'],
];

/** Texts scrubbing must leave as they are. */
const PROSE = [
  'prompt不能为空',
  'Invalid video request',
  'context too long: 9000 tokens > 8192',
  'model gpt-3.5-turbo is not supported, try gpt-4o-mini',
  'see README.md and main.py, e.g. the config.yaml file',
  'unknown field messages.0.content; expected data.id',
  'the event response.create needs session.update first',
  'finished at 12:30:45 on 2026-12-01T23:32:05Z',
  'error code:500, status:429, line:12',
  'version 1.2.3 is old',
  'Node.js and socket handling',
  'duration must be 5 or 10',
  'std::vector<int>',
  'ratio 3.14159 is fine',
  'Basic authentication is not supported for mj-relax-imagine',
];

describe('egress scrubbing', () => {
  it.each(LEAKS)('scrubs %j of %j', (text, gone) => {
    const out = scrubHosts(text);
    expect(out.toLowerCase()).not.toContain(gone.toLowerCase());
    expect(out).toMatch(/\[(upstream|port)\]/);
  });

  it.each(PROSE)('leaves prose alone: %j', (text) => {
    expect(scrubHosts(text)).toBe(text);
  });

  it('keeps the words around a host', () => {
    expect(scrubHosts('backend 10.1.2.3:8000 (internal-llm.corp.local) failed')).toBe('backend [upstream] ([upstream]) failed');
    expect(scrubHosts('connect ECONNREFUSED 127.0.0.1:41234')).toBe('connect ECONNREFUSED [upstream]');
    expect(scrubHosts('at 8.8.8.8.')).toBe('at [upstream].');
  });

  it('removes each configured key line and each | part, and key-shaped tokens', () => {
    const keys = secretsOf('line-one-key\naccess-abcd|secret-efgh\n ab ');
    expect(keys).toEqual(['access-abcd|secret-efgh', 'line-one-key', 'access-abcd', 'secret-efgh']);
    const text = 'keys line-one-key, access-abcd|secret-efgh, secret-efgh alone, sk-abcdefghijkl, Bearer abcdefghijk; ab stays';
    const out = scrubKeys(text, keys);
    for (const k of ['line-one-key', 'access-abcd', 'secret-efgh', 'abcdefghijkl', 'abcdefghijk']) expect(out).not.toContain(k);
    expect(out).toContain('ab stays');
    expect(scrubKeys('api_key=abcdef123456 password: "hunter2222"', [])).toBe('api_key=*** password: "***"');
  });

  it('keeps hosts for admins and removes them for everyone else', () => {
    const text = 'key-one failed at internal-llm.corp.local (10.1.2.3:8000)';
    expect(scrubText(text, ['key-one'], true)).toBe('*** failed at internal-llm.corp.local (10.1.2.3:8000)');
    expect(scrubText(text, ['key-one'], false)).toBe('*** failed at [upstream] ([upstream])');
  });
});
