import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import AuditLogPage from './AuditLogPage';
import { auditQuery, diffLines } from './audit-data';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'audit-log']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
});

const entry = {
  id: 4, created_at: 1_700_000_000, actor_id: 1, actor_name: 'root', actor_role: 100, ip: '10.0.0.9', action: 'update', target_kind: 'channel', target_id: '12',
  diff: { name: { before: 'old', after: 'new' }, key: { before: '****abcd', after: '****wxyz' }, weight: { before: null, after: 3 } },
};

describe('audit log screen', { timeout: 30_000 }, () => {
  it('lists entries, shows a diff with masked secrets, filters by actor and kind, and exports with the same filters', async () => {
    api = fakeApi((_m, url) => (url.startsWith('/api/audit/') ? { data: [entry], page: 1, size: 10, total_count: 1 } : [{ key: 'AuditLogRetentionDays', value: '90' }]));
    renderWithProviders(<AuditLogPage />);
    expect(await screen.findByText('root (#1)')).toBeTruthy();
    expect(screen.getByText('Channel 12')).toBeTruthy();
    expect(((await screen.findByTestId('audit-retention')) as HTMLInputElement).value).toBe('90');

    fireEvent.click(screen.getAllByLabelText('Expand')[0]);
    expect(await screen.findByText('****abcd')).toBeTruthy();
    expect(screen.getByText('****wxyz')).toBeTruthy();

    fireEvent.change(screen.getByTestId('audit-actor'), { target: { value: 'root' } });
    fireEvent.click(screen.getByTestId('filter-search'));
    await waitFor(() => expect(api!.calls.some((c) => c.url.startsWith('/api/audit/') && c.url.includes('actor=root'))).toBe(true));
    expect(screen.getByTestId('audit-export').getAttribute('href')).toContain('/api/audit/export?actor=root');
  });

  it('turns filters into the query and diffs into readable lines', () => {
    expect(auditQuery({ actor: ' 7 ', target_kind: '', start: 0, end: 0 })).toEqual({ actor: '7', target_kind: undefined, start_timestamp: undefined, end_timestamp: undefined });
    expect(auditQuery({ actor: '', target_kind: 'price', start: 1_767_000_000, end: 0 })).toMatchObject({ start_timestamp: 1_767_000_000, end_timestamp: undefined });
    expect(diffLines(entry.diff)).toEqual([
      { field: 'name', before: 'old', after: 'new' },
      { field: 'key', before: '****abcd', after: '****wxyz' },
      { field: 'weight', before: '∅', after: '3' },
    ]);
  });
});
