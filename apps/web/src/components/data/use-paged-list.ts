import { useCallback, useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { trimDeep } from '@one-hub/contract';
import type { DataTableProps } from './DataTable';
import { nextOrder, parseOrder, readPageSize, writePageSize } from './page-sizes';

export interface PagedQuery<F> {
  /** 1-based, as the API expects. */
  page: number;
  size: number;
  order?: string;
  filters: F;
}

export interface PagedListOptions<T, F extends object> {
  /** Table id: the react-query key and the `user_page_sizes` entry. */
  key: string;
  /** `total_capped`: the server stopped counting at `total_count` (shown as "10 000+"). */
  fetch: (q: PagedQuery<F>) => Promise<{ data: T[]; total_count: number; total_capped?: boolean }>;
  initialFilters: F;
  /** Default `-id` (console-screens §0). */
  initialOrder?: string;
  defaultSize?: number;
}

/**
 * A server-paged table's state (console-screens §0): 0-based page in the UI, sent 1-based; rows per page
 * remembered per table; filters trimmed before they are sent; refresh resets the sort.
 */
export function usePagedList<T, F extends object>(opts: PagedListOptions<T, F>) {
  const initialOrder = opts.initialOrder ?? '-id';
  const [page, setPageState] = useState(0);
  const [size, setSizeState] = useState(() => readPageSize(opts.key, opts.defaultSize));
  const [order, setOrder] = useState<string>(initialOrder);
  const [filters, setFiltersState] = useState<F>(opts.initialFilters);

  const query = useQuery({
    queryKey: ['paged', opts.key, page, size, order, filters],
    queryFn: () => opts.fetch({ page: page + 1, size, order: order || undefined, filters: trimDeep(filters) }),
    placeholderData: keepPreviousData,
    retry: false,
  });

  // A page that emptied (its last rows deleted) falls back to the new last page.
  const total = query.data?.total_count ?? 0;
  const emptied = !query.isFetching && page > 0 && (query.data?.data.length ?? 1) === 0 && total > 0;
  useEffect(() => {
    if (emptied) setPageState(Math.max(0, Math.ceil(total / size) - 1));
  }, [emptied, total, size]);

  const setPage = useCallback((p: number) => setPageState(Math.max(0, p)), []);
  const setSize = useCallback(
    (s: number) => {
      writePageSize(opts.key, s);
      setSizeState(s);
      setPageState(0);
    },
    [opts.key],
  );
  const toggleOrder = useCallback((field: string) => setOrder((cur) => nextOrder(cur, field)), []);
  const setFilters = useCallback((f: F) => {
    setFiltersState(f);
    setPageState(0);
  }, []);
  const { refetch } = query;
  const refresh = useCallback(() => {
    setOrder(initialOrder);
    void refetch();
  }, [initialOrder, refetch]);
  /** Reloads the current page as it is sorted (after an edit). */
  const reload = useCallback(() => void refetch(), [refetch]);

  return {
    rows: query.data?.data ?? [],
    total: query.data?.total_count ?? 0,
    capped: query.data?.total_capped ?? false,
    updatedAt: query.dataUpdatedAt,
    loading: query.isFetching,
    error: query.error ?? undefined,
    page,
    size,
    order,
    filters,
    setPage,
    setSize,
    toggleOrder,
    setFilters,
    refresh,
    reload,
  };
}

export type PagedList<T, F extends object = object> = ReturnType<typeof usePagedList<T, F>>;

type PagedTableProps<T> = Pick<DataTableProps<T>, 'rows' | 'loading' | 'error' | 'onRetry' | 'updatedAt' | 'sort' | 'onSort' | 'pagination'>;

/** A paged list's rows, states, sort and pagination as `DataTable` props. */
export function pagedTableProps<T, F extends object>(list: PagedList<T, F>): PagedTableProps<T> {
  return {
    rows: list.rows,
    loading: list.loading,
    error: list.error,
    onRetry: list.refresh,
    updatedAt: list.updatedAt,
    sort: parseOrder(list.order),
    onSort: list.toggleOrder,
    pagination: { page: list.page, pageSize: list.size, total: list.total, capped: list.capped, onPage: list.setPage, onPageSize: list.setSize },
  };
}
