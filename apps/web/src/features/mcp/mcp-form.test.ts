import { describe, expect, it } from 'vitest';
import type { McpServer } from '@one-hub/contract';
import { asPage, formToBody, serverToForm, validateMcpForm } from './mcp-form';

const generic = (e: { code: string }) => `generic:${e.code}`;
const stored: McpServer = {
  id: 4,
  name: 'docs',
  transport: 'sse',
  url: 'https://docs.example.test/sse',
  header_names: ['X-Api-Key'],
  auth_type: 'oauth-client-credentials',
  groups: 'vip',
  price: 10,
  timeout_ms: 45_000,
  enabled: false,
  tool_count: 0,
  tools: [],
  protocol_version: '',
  last_refresh_time: 0,
  last_error: '',
  created_time: 1,
};

describe('MCP server form', () => {
  it('starts a new server on streamable HTTP, enabled, free, 30 s, no credential', () => {
    const f = serverToForm();
    expect(f).toMatchObject({ transport: 'streamable-http', authType: 'none', price: '0', timeout: '30', enabled: true, headers: [], groups: [] });
    expect(validateMcpForm(f, generic)).toEqual({ name: 'generic:required', url: 'generic:required' });
    expect(formToBody({ ...f, name: 'a', url: 'https://x.test/mcp' })).toEqual({ name: 'a', transport: 'streamable-http', url: 'https://x.test/mcp', headers: {}, auth: { type: 'none' }, groups: '', price: 0, timeout_ms: 30000, enabled: true });
  });

  it('edits a stored server: secrets stay out of the body until typed, a new credential type needs its fields', () => {
    const f = serverToForm(stored);
    expect(f).toMatchObject({ name: 'docs', transport: 'sse', headers: [{ name: 'X-Api-Key', value: '', stored: true }], authType: 'oauth-client-credentials', clientSecret: '', groups: ['vip'], timeout: '45', enabled: false });
    expect(validateMcpForm(f, generic, stored)).toEqual({});
    const body = formToBody(f, stored);
    expect(body).toEqual({ id: 4, name: 'docs', transport: 'sse', url: 'https://docs.example.test/sse', groups: 'vip', price: 10, timeout_ms: 45000, enabled: false });

    // removing the only header sends an empty set (stop sending it)
    expect(formToBody({ ...f, headers: [] }, stored).headers).toEqual({});
    // switching the credential off sends it; to a bearer token needs the token
    expect(formToBody({ ...f, authType: 'none' }, stored).auth).toEqual({ type: 'none' });
    expect(validateMcpForm({ ...f, authType: 'bearer' }, generic, stored)).toMatchObject({ bearerToken: expect.any(String) });
    // a partly typed OAuth replacement is refused field by field
    const partial = validateMcpForm({ ...f, clientId: 'new-client' }, generic, stored);
    expect(Object.keys(partial).sort()).toEqual(['clientSecret', 'tokenUrl']);
    expect(validateMcpForm({ ...f, clientId: 'c', clientSecret: 's', tokenUrl: 'not a url' }, generic, stored)).toEqual({ tokenUrl: 'errors.url' });
  });

  it('checks header rows: names, duplicates, and a value for each new one', () => {
    const f = { ...serverToForm(stored), headers: [{ name: 'X-Api-Key', value: '', stored: true }, { name: 'x-api-key', value: 'v', stored: false }, { name: 'Bad Name', value: 'v', stored: false }, { name: '', value: 'orphan', stored: false }, { name: 'X-New', value: '', stored: false }] };
    expect(validateMcpForm(f, generic, stored)).toEqual({ 'header.1': 'errors.headerTwice', 'header.2': 'errors.headerChars', 'header.3': 'errors.headerName', 'header.4': 'errors.headerValue' });
  });

  it('words the name, price and timeout rules itself', () => {
    const f = { ...serverToForm(), name: 'Bad Name', url: 'https://x.test', price: '-1', timeout: '601' };
    expect(validateMcpForm(f, generic)).toEqual({ name: 'errors.nameChars', price: 'errors.price', timeout: 'errors.timeout' });
    expect(validateMcpForm({ ...f, name: 'n'.repeat(33), price: '1.5', timeout: '' }, generic)).toEqual({ name: 'generic:too_long', price: 'errors.price', timeout: 'errors.timeout' });
  });

  it('reads a list answer as a page', () => {
    expect(asPage([stored]).total_count).toBe(1);
    expect(asPage({ data: [stored], page: 2, size: 1, total_count: 5 }).total_count).toBe(5);
  });
});
