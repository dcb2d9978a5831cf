import { CreateMcpServerBody, fieldErrorOf, UpdateMcpServerBody, type McpAuth, type McpServer, type McpTransport, type Page } from '@one-hub/contract';

/** One header row: `stored` rows came from the server (their value is write-only and shown empty). */
export interface HeaderRow {
  name: string;
  value: string;
  stored: boolean;
}

/** The MCP server dialog's fields as the admin edits them. */
export interface McpFormState {
  name: string;
  transport: McpTransport;
  url: string;
  headers: HeaderRow[];
  authType: McpAuth['type'];
  bearerToken: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  groups: string[];
  price: string;
  /** Seconds in the form; the API takes milliseconds. */
  timeout: string;
  enabled: boolean;
}

/** Field → problem: an i18n key of the mcp namespace (`errors.*`) or a text already in the reader's language. */
export type McpFormErrors = Partial<Record<keyof McpFormState | 'auth' | `header.${number}`, string>>;

export function serverToForm(s?: McpServer | null): McpFormState {
  return {
    name: s?.name ?? '',
    transport: s?.transport ?? 'streamable-http',
    url: s?.url ?? '',
    headers: (s?.header_names ?? []).map((name) => ({ name, value: '', stored: true })),
    authType: s?.auth_type ?? 'none',
    bearerToken: '',
    tokenUrl: '',
    clientId: '',
    clientSecret: '',
    scope: '',
    groups: s ? s.groups.split(',').map((g) => g.trim()).filter(Boolean) : [],
    price: String(s?.price ?? 0),
    timeout: String(Math.round((s?.timeout_ms ?? 30_000) / 1000)),
    enabled: s?.enabled ?? true,
  };
}

/** Whether the header rows are exactly the stored names with nothing typed (then an edit leaves them alone). */
function headersUntouched(f: McpFormState, original: McpServer): boolean {
  const rows = f.headers.filter((h) => h.name.trim());
  return rows.length === original.header_names.length && rows.every((h, i) => h.stored && h.name.trim() === original.header_names[i] && h.value === '');
}

/**
 * The credential to send: on create always; on edit only when the admin changed the type or typed a
 * secret (absent keeps the sealed one, as the contract says).
 */
function authOf(f: McpFormState, original?: McpServer): McpAuth | undefined | 'incomplete' {
  const typed = f.authType === 'bearer' ? f.bearerToken !== '' : f.authType === 'oauth-client-credentials' ? [f.tokenUrl, f.clientId, f.clientSecret, f.scope].some((v) => v.trim() !== '') : false;
  if (original && f.authType === original.auth_type && !typed) return undefined;
  if (f.authType === 'none') return { type: 'none' };
  if (f.authType === 'bearer') return { type: 'bearer', token: f.bearerToken };
  return { type: 'oauth-client-credentials', token_url: f.tokenUrl.trim(), client_id: f.clientId.trim(), client_secret: f.clientSecret, scope: f.scope.trim() };
}

/**
 * The body of POST (no `original`) or PUT /api/mcp_server/ (with it: only what changed among the
 * write-only parts). A stored header left empty is sent as '' — "keep the stored value".
 */
export function formToBody(f: McpFormState, original?: McpServer) {
  const rows = f.headers.filter((h) => h.name.trim() !== '');
  const headers = original && headersUntouched(f, original) ? undefined : Object.fromEntries(rows.map((h) => [h.name.trim(), h.value]));
  const auth = authOf(f, original);
  const seconds = Number(f.timeout);
  return {
    ...(original ? { id: original.id } : {}),
    name: f.name.trim(),
    transport: f.transport,
    url: f.url.trim(),
    ...(headers !== undefined ? { headers } : {}),
    ...(auth !== undefined && auth !== 'incomplete' ? { auth } : {}),
    groups: f.groups.join(','),
    price: f.price.trim() === '' ? Number.NaN : Number(f.price),
    timeout_ms: f.timeout.trim() === '' ? Number.NaN : Math.round(seconds * 1000),
    enabled: f.enabled,
  };
}

const FIELD_OF: Record<string, keyof McpFormState | 'auth'> = {
  name: 'name',
  transport: 'transport',
  url: 'url',
  groups: 'groups',
  price: 'price',
  timeout_ms: 'timeout',
  'auth.token': 'bearerToken',
  'auth.token_url': 'tokenUrl',
  'auth.client_id': 'clientId',
  'auth.client_secret': 'clientSecret',
  'auth.scope': 'scope',
};

/**
 * Checks the form with the contract's schema (the server's own rules) and says, per field, what is
 * wrong: `errors.*` keys for the rules this screen words itself, otherwise the generic field text
 * (`fieldText`, e.g. "At most 2048 characters").
 */
export function validateMcpForm(f: McpFormState, fieldText: (e: ReturnType<typeof fieldErrorOf>) => string, original?: McpServer): McpFormErrors {
  const out: McpFormErrors = {};
  const names = new Set<string>();
  f.headers.forEach((h, i) => {
    const name = h.name.trim();
    if (!name) {
      if (h.value) out[`header.${i}`] = 'errors.headerName';
      return;
    }
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) out[`header.${i}`] = 'errors.headerChars';
    else if (names.has(name.toLowerCase())) out[`header.${i}`] = 'errors.headerTwice';
    else if (!h.stored && h.value === '') out[`header.${i}`] = 'errors.headerValue';
    names.add(name.toLowerCase());
  });
  const body = formToBody(f, original);
  const parsed = original ? UpdateMcpServerBody.safeParse(body) : CreateMcpServerBody.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      const field = FIELD_OF[path] ?? (path.startsWith('auth') ? 'auth' : path.startsWith('headers') ? undefined : (path as keyof McpFormState));
      if (!field || field in out) continue;
      const e = fieldErrorOf(issue);
      if (field === 'name' && e.code === 'invalid_format') out.name = 'errors.nameChars';
      else if (field === 'timeout') out.timeout = 'errors.timeout';
      else if (field === 'price') out.price = 'errors.price';
      else if (field === 'tokenUrl' && e.code === 'invalid_format') out.tokenUrl = 'errors.url';
      else out[field] = fieldText(e);
    }
  }
  // An edit that switches to a credential with secrets must give them all.
  if (original && f.authType !== original.auth_type) {
    if (f.authType === 'bearer' && !f.bearerToken) out.bearerToken ??= 'errors.required';
    if (f.authType === 'oauth-client-credentials') {
      if (!f.tokenUrl.trim()) out.tokenUrl ??= 'errors.required';
      if (!f.clientId.trim()) out.clientId ??= 'errors.required';
      if (!f.clientSecret) out.clientSecret ??= 'errors.required';
    }
  }
  return out;
}

/** The list answer as a page (the API pages like every list; a bare array is taken as one page). */
export function asPage(answer: Page<McpServer> | McpServer[] | null | undefined): Page<McpServer> {
  if (Array.isArray(answer)) return { data: answer, page: 1, size: answer.length, total_count: answer.length };
  return answer ?? { data: [], page: 1, size: 0, total_count: 0 };
}
