import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TextField } from '@mui/material';
import i18n from '../../lib/i18n';
import { ApiError } from '../../lib/api';
import { makeStore } from '../../store';
import { ConfirmDialog, DataTable, FilterBar, JsonField, QuotaText, RefreshButton, StatusChip, TimeText, pagedTableProps, usePagedList, type DataColumn, type PagedList } from '.';
import { jsonError } from './JsonField';

const toasts = vi.hoisted(() => [] as { message: string; variant?: string }[]);
vi.mock('notistack', () => ({ enqueueSnackbar: (message: string, o: { variant?: string }) => toasts.push({ message, variant: o?.variant }) }));
import { nextOrder, parseOrder, readPageSize } from './page-sizes';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces('common');
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

interface Row {
  id: number;
  name: string;
}
const columns: DataColumn<Row>[] = [
  { field: 'id', header: 'ID', sortable: true },
  { field: 'name', header: 'Name', render: (r) => <b>{r.name.toUpperCase()}</b> },
  { field: 'secret', header: 'Secret', hideOnPhone: true, render: () => 'hidden-on-phone' },
];
const rows: Row[] = [
  { id: 1, name: 'alpha' },
  { id: 2, name: 'beta' },
];

describe('DataTable', () => {
  it('renders rows through render functions and sorts by header', () => {
    const onSort = vi.fn();
    render(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} sort={{ field: 'id', order: 'desc' }} onSort={onSort} />);
    expect(screen.getAllByTestId('table-row')).toHaveLength(2);
    expect(screen.getByText('ALPHA')).toBeTruthy();
    fireEvent.click(screen.getByText('ID'));
    expect(onSort).toHaveBeenCalledWith('id');
    // Name is not sortable: no sort label to click.
    expect(screen.getByText('Name').closest('.MuiTableSortLabel-root')).toBeNull();
  });

  it('shows skeleton rows while the first page loads, then the empty text', () => {
    const { rerender } = render(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} loading />);
    expect(screen.getAllByTestId('table-skeleton').length).toBeGreaterThan(0);
    expect(screen.queryByTestId('table-empty')).toBeNull();
    rerender(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} loading={false} emptyText="Nothing here" />);
    expect(screen.getByTestId('table-empty').textContent).toContain('Nothing here');
  });

  it('shows a paginator skeleton, not "0-0 of 0", until the first page has answered', () => {
    const pagination = { page: 0, pageSize: 10, total: 0, onPage: () => undefined, onPageSize: () => undefined };
    const { rerender } = render(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} loading pagination={pagination} />);
    expect(screen.getByTestId('paginator-skeleton')).toBeTruthy();
    expect(screen.queryByText(/0–0|0-0/)).toBeNull();
    rerender(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} pagination={{ ...pagination, total: 2 }} />);
    expect(screen.queryByTestId('paginator-skeleton')).toBeNull();
    expect(screen.getByText(/1.2 of 2/)).toBeTruthy();
  });

  it('shows the server message with a retry button on error', () => {
    const onRetry = vi.fn();
    render(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} loading={false} error={new ApiError('x', 400, 'bad filter')} onRetry={onRetry} />);
    const alert = screen.getByTestId('table-error');
    expect(alert.textContent).toContain('bad filter');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('keeps the rows when a refresh fails: a banner with their time and Retry, and one toast', () => {
    toasts.length = 0;
    const onRetry = vi.fn();
    const at = new Date(2026, 0, 2, 3, 4, 5).getTime();
    const table = (error?: unknown) => <DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} error={error} onRetry={onRetry} updatedAt={at} />;
    const { rerender } = render(table());
    expect(screen.queryByTestId('table-stale')).toBeNull();
    const failure = new ApiError('x', 429);
    rerender(table(failure));
    const banner = screen.getByTestId('table-stale');
    expect(banner.textContent).toContain('2026-01-02 03:04:05');
    expect(banner.textContent).toContain('too many requests');
    expect(screen.getAllByTestId('table-row')).toHaveLength(2);
    expect(screen.queryByTestId('table-error')).toBeNull();
    rerender(table(failure));
    expect(toasts.filter((x) => x.variant === 'error')).toHaveLength(1);
    fireEvent.click(within(banner).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
    rerender(table());
    expect(screen.queryByTestId('table-stale')).toBeNull();
  });

  it('dates stale rows by their last settled render when no load time is given', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(2026, 4, 6, 7, 8, 9));
      const { rerender } = render(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} />);
      vi.setSystemTime(new Date(2026, 4, 6, 7, 30, 0));
      rerender(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading />);
      rerender(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} error={new ApiError('', 200, 'db busy')} />);
      expect(screen.getByTestId('table-stale').textContent).toContain('2026-05-06 07:08:09');
      expect(screen.getByTestId('table-stale').textContent).toContain('db busy');
    } finally {
      vi.useRealTimers();
    }
  });

  it('selects one row, then all rows with the header checkbox', () => {
    const onChange = vi.fn();
    const { rerender } = render(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} selection={{ selected: [], onChange }} />);
    const boxes = screen.getAllByRole('checkbox');
    fireEvent.click(boxes[2]);
    expect(onChange).toHaveBeenLastCalledWith([2]);
    rerender(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} selection={{ selected: [2], onChange }} />);
    const all = screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement;
    expect(all.dataset.indeterminate).toBe('true');
    fireEvent.click(all);
    expect(onChange).toHaveBeenLastCalledWith([1, 2]);
  });

  it('gives rows their own look through rowSx', () => {
    render(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} rowSx={(_r, i) => (i === 1 ? { fontStyle: 'italic' } : undefined)} />);
    const [a, b] = screen.getAllByTestId('table-row');
    expect(getComputedStyle(a).fontStyle).not.toBe('italic');
    expect(getComputedStyle(b).fontStyle).toBe('italic');
  });

  it('expands a row to show its detail', () => {
    render(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} renderExpanded={(r) => <span>detail of {r.name}</span>} />);
    expect(screen.queryByText('detail of alpha')).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: 'Expand' })[0]);
    expect(screen.getByText('detail of alpha')).toBeTruthy();
  });

  it('pages and changes the page size', () => {
    const onPage = vi.fn();
    const onPageSize = vi.fn();
    render(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} pagination={{ page: 0, pageSize: 10, total: 25, onPage, onPageSize }} />);
    expect(screen.getByText('1-10 of 25')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(onPage).toHaveBeenCalledWith(1);
    fireEvent.click(screen.getByRole('button', { name: /last page/i }));
    expect(onPage).toHaveBeenLastCalledWith(2);
  });

  it('becomes cards without the phone-hidden columns at phone width', () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('max-width'), media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }));
    render(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={false} />);
    expect(screen.getByTestId('data-table').dataset.layout).toBe('cards');
    expect(screen.queryByText('hidden-on-phone')).toBeNull();
    expect(screen.getAllByText('Name')).toHaveLength(2);
  });

  it('folds secondary columns into the expanded row below their breakpoint, and clips long cells', () => {
    // A 1440 px laptop: below xl (1536), above every smaller breakpoint.
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('1535'), media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }));
    const wide: DataColumn<Row>[] = [
      { field: 'id', header: 'ID' },
      { field: 'name', header: 'Name', maxWidth: 120 },
      { field: 'ip', header: 'Source IP', hideBelow: 'xl', render: (r) => `10.0.0.${r.id}` },
    ];
    render(<DataTable columns={wide} rows={rows} rowKey={(r) => r.id} loading={false} folded={[{ field: 'extra', header: 'Extra', render: (r) => `extra-${r.id}` }]} />);
    const headers = [...document.querySelectorAll('thead th')].map((h) => h.textContent);
    expect(headers).toEqual(['', 'ID', 'Name']);
    expect(screen.queryByText('10.0.0.1')).toBeNull();
    const clipped = screen.getAllByTestId('clipped-cell')[0];
    expect(clipped.textContent).toBe('alpha');
    expect(clipped.style.maxWidth || getComputedStyle(clipped).maxWidth).toBe('120px');
    expect(getComputedStyle(clipped).textOverflow).toBe('ellipsis');
    fireEvent.click(within(screen.getAllByTestId('table-row')[1]).getByRole('button', { name: /expand/i }));
    const panel = within(screen.getByTestId('folded-fields'));
    expect(panel.getByText('Source IP')).toBeTruthy();
    expect(panel.getByText('10.0.0.2')).toBeTruthy();
    expect(panel.getByText('extra-2')).toBeTruthy();
    expect(screen.queryByText('10.0.0.1')).toBeNull();
  });

  it('folds a laptop column at 1366 px and keeps it at 1440 px', () => {
    const cols: DataColumn<Row>[] = [
      { field: 'id', header: 'ID' },
      { field: 'rt', header: 'Response time', hideBelow: 'laptop', render: (r) => `${r.id * 10} ms` },
    ];
    // 1366 px: below 1440 and below xl (1536)
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('1439') || q.includes('1535'), media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }));
    const { unmount } = render(<DataTable columns={cols} rows={rows} rowKey={(r) => r.id} loading={false} />);
    expect([...document.querySelectorAll('thead th')].map((h) => h.textContent)).toEqual(['', 'ID']);
    fireEvent.click(within(screen.getAllByTestId('table-row')[0]).getByRole('button', { name: /expand/i }));
    expect(within(screen.getByTestId('folded-fields')).getByText('10 ms')).toBeTruthy();
    unmount();
    // 1440 px: below xl only
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('1535'), media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }));
    render(<DataTable columns={cols} rows={rows} rowKey={(r) => r.id} loading={false} />);
    expect([...document.querySelectorAll('thead th')].map((h) => h.textContent)).toEqual(['ID', 'Response time']);
    expect(screen.getByText('10 ms')).toBeTruthy();
  });

  it('keeps a column below its breakpoint in the row at full width', () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }));
    render(<DataTable columns={[{ field: 'id', header: 'ID' }, { field: 'ip', header: 'Source IP', hideBelow: 'xl', render: (r) => `10.0.0.${r.id}` }]} rows={rows} rowKey={(r) => r.id} loading={false} />);
    expect(screen.getByText('10.0.0.1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /expand/i })).toBeNull();
  });

  it('skips empty cells in phone cards instead of printing bare labels', () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('max-width'), media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }));
    const withBlank: DataColumn<Row>[] = [...columns, { field: 'note', header: 'Note', render: (r) => (r.id === 1 ? 'noted' : '') }];
    render(<DataTable columns={withBlank} rows={rows} rowKey={(r) => r.id} loading={false} />);
    expect(screen.getAllByText('Note')).toHaveLength(1);
    expect(screen.getByText('noted')).toBeTruthy();
  });
});

describe('usePagedList', () => {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;

  it('asks 1-based pages with -id first, trims filters, toggles order, remembers the size', async () => {
    localStorage.setItem('user_page_sizes', JSON.stringify({ token: 30, other: 50 }));
    const fetch = vi.fn(async () => ({ data: [{ id: 1 }], total_count: 41 }));
    const { result } = renderHook(() => usePagedList({ key: 'token', fetch, initialFilters: { keyword: '' } }), { wrapper });
    await waitFor(() => expect(result.current.total).toBe(41));
    expect(fetch).toHaveBeenLastCalledWith({ page: 1, size: 30, order: '-id', filters: { keyword: '' } });

    act(() => result.current.setPage(1));
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith(expect.objectContaining({ page: 2 })));
    act(() => result.current.setFilters({ keyword: '  gpt  ' }));
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith({ page: 1, size: 30, order: '-id', filters: { keyword: 'gpt' } }));
    expect(result.current.filters.keyword).toBe('  gpt  ');

    act(() => result.current.toggleOrder('name'));
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith(expect.objectContaining({ order: 'name' })));
    act(() => result.current.toggleOrder('name'));
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith(expect.objectContaining({ order: '-name' })));
    act(() => result.current.refresh());
    await waitFor(() => expect(result.current.order).toBe('-id'));

    act(() => result.current.setSize(100));
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith(expect.objectContaining({ size: 100, page: 1 })));
    expect(JSON.parse(localStorage.getItem('user_page_sizes')!)).toEqual({ token: 100, other: 50 });
  });

  it('falls back to the last page when the shown page empties', async () => {
    let total = 25;
    const fetch = vi.fn(async (q: { page: number }) => ({ data: q.page > Math.ceil(total / 10) ? [] : [{ id: q.page }], total_count: total }));
    const { result } = renderHook(() => usePagedList({ key: 'x', fetch, initialFilters: {} }), { wrapper });
    await waitFor(() => expect(result.current.total).toBe(25));
    act(() => result.current.setPage(2));
    await waitFor(() => expect(result.current.rows).toEqual([{ id: 3 }]));
    total = 20;
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.page).toBe(1));
    await waitFor(() => expect(result.current.rows).toEqual([{ id: 2 }]));
  });

  it('exposes the failure', async () => {
    const { result } = renderHook(() => usePagedList({ key: 'x', fetch: () => Promise.reject(new ApiError('no', 403, 'no access')), initialFilters: {} }), { wrapper });
    await waitFor(() => expect(result.current.error).toBeInstanceOf(ApiError));
    expect(result.current.rows).toEqual([]);
  });

  it('order helpers and stored sizes', () => {
    expect(nextOrder('-id', 'id')).toBe('id');
    expect(nextOrder('id', 'id')).toBe('-id');
    expect(nextOrder('-id', 'name')).toBe('name');
    expect(parseOrder('-id')).toEqual({ field: 'id', order: 'desc' });
    expect(parseOrder('')).toBeUndefined();
    localStorage.setItem('user_page_sizes', 'not json');
    expect(readPageSize('token')).toBe(10);
    expect(readPageSize('pricing', 20)).toBe(20);
  });
});

describe('pagedTableProps', () => {
  const fakeList = (over: Partial<PagedList<Row>> = {}): PagedList<Row> => ({
    rows,
    total: 25,
    capped: false,
    updatedAt: 0,
    loading: false,
    error: undefined,
    page: 1,
    size: 10,
    order: '-id',
    filters: {},
    setPage: vi.fn(),
    setSize: vi.fn(),
    toggleOrder: vi.fn(),
    setFilters: vi.fn(),
    refresh: vi.fn(),
    reload: vi.fn(),
    ...over,
  });

  it('maps each list field to its DataTable prop', () => {
    const list = fakeList();
    expect(pagedTableProps(list)).toEqual({
      rows,
      loading: false,
      error: undefined,
      onRetry: list.refresh,
      updatedAt: 0,
      sort: { field: 'id', order: 'desc' },
      onSort: list.toggleOrder,
      pagination: { page: 1, pageSize: 10, total: 25, capped: false, onPage: list.setPage, onPageSize: list.setSize },
    });
    expect(pagedTableProps(fakeList({ order: '' })).sort).toBeUndefined();
  });

  it('drives the table: page, sort and retry reach the list', () => {
    const list = fakeList();
    const { rerender } = render(<DataTable columns={columns} rowKey={(r) => r.id} {...pagedTableProps(list)} />);
    expect(screen.getByText('11-20 of 25')).toBeTruthy();
    expect(screen.getByText('ID').closest('th')!.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(list.setPage).toHaveBeenCalledWith(2);
    fireEvent.click(screen.getByText('ID'));
    expect(list.toggleOrder).toHaveBeenCalledWith('id');

    const failed = fakeList({ rows: [], error: new ApiError('x', 500, 'down') });
    rerender(<DataTable columns={columns} rowKey={(r) => r.id} {...pagedTableProps(failed)} />);
    fireEvent.click(within(screen.getByTestId('table-error')).getByRole('button', { name: 'Retry' }));
    expect(failed.refresh).toHaveBeenCalledOnce();
    expect(list.refresh).not.toHaveBeenCalled();
  });
});

describe('small pieces', () => {
  it('RefreshButton is named by its label and reloads on click', () => {
    const onClick = vi.fn();
    render(<RefreshButton label="Reload" onClick={onClick} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('ConfirmDialog asks "execute {title}?" and confirms', () => {
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    render(<ConfirmDialog open title="Test all" onConfirm={onConfirm} onClose={onClose} />);
    expect(screen.getByText('Execute Test all?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('StatusChip copies its copyText', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<StatusChip label="gpt-4o" color="orange" copyText="gpt-4o" />);
    fireEvent.click(screen.getByText('gpt-4o'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('gpt-4o'));
    await waitFor(() => expect(toasts.at(-1)).toEqual({ message: 'Copied gpt-4o!', variant: 'success' }));
  });

  it('QuotaText follows the display setting; TimeText formats seconds', () => {
    render(
      <Provider store={makeStore()}>
        <QuotaText quota={1_250_000} data-testid="q" />
        <TimeText value={0} data-testid="t" />
      </Provider>,
    );
    expect(screen.getByTestId('q').textContent).toBe('$2.50');
    expect(screen.getByTestId('t').textContent).toBe('-');
  });

  it('JsonField reports invalid JSON and extra rules', () => {
    const onChange = vi.fn();
    const { rerender } = render(<JsonField label="Mapping" value="{bad" onChange={onChange} />);
    expect(screen.getByText('Must be valid JSON')).toBeTruthy();
    rerender(<JsonField label="Mapping" value='{"a":"b"}' onChange={onChange} helperText="help" />);
    expect(screen.getByText('help')).toBeTruthy();
    expect(jsonError('[1]', (v) => (Array.isArray(v) ? 'object please' : undefined))).toBe('object please');
    expect(jsonError('  ')).toBeUndefined();
  });

  it('FilterBar searches on Enter and resets', () => {
    const onSearch = vi.fn();
    const onReset = vi.fn();
    render(
      <FilterBar onSearch={onSearch} onReset={onReset}>
        <TextField label="Name" />
      </FilterBar>,
    );
    fireEvent.submit(screen.getByLabelText('Name').closest('form')!);
    expect(onSearch).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByTestId('filter-reset'));
    expect(onReset).toHaveBeenCalledOnce();
  });

  it('FilterBar folds the filters behind a toggle with the active count on phones', () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('max-width'), media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }));
    render(
      <FilterBar onSearch={() => undefined} onReset={() => undefined} active={2}>
        <TextField label="Name" />
      </FilterBar>,
    );
    const toggle = screen.getByTestId('filter-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toContain('2');
    expect(screen.getByLabelText('Name').closest('.MuiCollapse-root')!.className).toContain('MuiCollapse-hidden');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });
});
