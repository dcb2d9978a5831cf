import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  Checkbox,
  Collapse,
  IconButton,
  LinearProgress,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
  type SxProps,
  type Theme,
} from '@mui/material';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../lib/error-handler';
import { formatNumber } from '../../lib/format-number';
import { PAGE_SIZE_OPTIONS } from './page-sizes';
import { StaleBanner } from './StaleBanner';

export interface DataColumn<T> {
  field: string;
  header: string;
  sortable?: boolean;
  align?: 'left' | 'right' | 'center';
  width?: number;
  render?: (row: T) => ReactNode;
  hideOnPhone?: boolean;
  /**
   * Folded into the row's expanded panel on screens narrower than this breakpoint (secondary columns
   * of wide tables); `laptop` is 1440 px, so a 1366×768 screen folds what a 1440×900 one still shows.
   */
  hideBelow?: 'md' | 'lg' | 'laptop' | 'xl';
  /** Widest the cell may grow (px): longer text is cut with an ellipsis and shown whole in a tooltip. */
  maxWidth?: number;
  /** Stays visible at the right edge while a wide table scrolls (row actions). */
  pinned?: boolean;
  /** Help text behind a small icon beside the header. */
  headerHint?: string;
}

type Id = string | number;

export interface DataTableProps<T> {
  columns: DataColumn<T>[];
  rows: T[];
  rowKey: (row: T) => Id;
  loading: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** When the rows were loaded (epoch ms, react-query's `dataUpdatedAt`); shown when a refresh fails. */
  updatedAt?: number;
  emptyText?: string;
  sort?: { field: string; order: 'asc' | 'desc' };
  onSort?: (field: string) => void;
  /** `capped`: `total` is where the server stopped counting; shown as "10 000+", with no last-page button. */
  pagination?: { page: number; pageSize: number; total: number; capped?: boolean; onPage: (p: number) => void; onPageSize: (s: number) => void; options?: number[] };
  selection?: { selected: Id[]; onChange: (ids: Id[]) => void };
  renderExpanded?: (row: T) => ReactNode;
  /** Columns kept out of the row and shown in its expanded panel (besides those `hideBelow` folds at this width). */
  folded?: DataColumn<T>[];
  /** Extra look for a row (its index on this page). */
  rowSx?: (row: T, index: number) => SxProps<Theme> | undefined;
}

const SKELETON_ROWS = 5;
/** The common laptop width (px): below it a 1366×768 screen folds the `hideBelow: 'laptop'` columns. */
export const LAPTOP = 1440;
/** A paginator that fits 390 px: no gaps between its parts, wrapping rather than overflowing. */
export const PHONE_PAGINATOR = {
  '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', px: 0, minHeight: 44 },
  '& .MuiTablePagination-spacer': { display: 'none' },
  '& .MuiTablePagination-input': { ml: 0, mr: 1 },
  '& .MuiTablePagination-actions': { ml: 0.5 },
  '& .MuiTablePagination-actions .MuiIconButton-root': { p: 0.75 },
} as const;

function rawValue<T>(row: T, col: DataColumn<T>): ReactNode {
  if (col.render) return col.render(row);
  const v = (row as Record<string, unknown>)[col.field];
  return v === null || v === undefined ? '' : String(v as string | number);
}

/** A cell's content; with `maxWidth`, cut to one line with an ellipsis and the whole text in a tooltip. */
function cellValue<T>(row: T, col: DataColumn<T>): ReactNode {
  const value = rawValue(row, col);
  if (!col.maxWidth || isBlank(value)) return value;
  return <Clipped maxWidth={col.maxWidth} title={typeof value === 'string' || typeof value === 'number' ? String(value) : undefined}>{value}</Clipped>;
}

/** One line at most `maxWidth` wide; a tooltip with the text only when it is cut. */
function Clipped({ maxWidth, title, children }: { maxWidth: number; title?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [cut, setCut] = useState(false);
  const box = (
    <Box
      ref={ref}
      data-testid="clipped-cell"
      onMouseEnter={() => setCut(Boolean(ref.current && ref.current.scrollWidth > ref.current.clientWidth))}
      sx={{ maxWidth, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', '& .MuiChip-root': { maxWidth: '100%' } }}
    >
      {children}
    </Box>
  );
  return title ? (
    <Tooltip title={cut ? title : ''} placement="top-start">
      {box}
    </Tooltip>
  ) : (
    box
  );
}

/** The columns folded into the expanded panel, as label and value pairs. */
function FoldedFields<T>({ row, columns }: { row: T; columns: DataColumn<T>[] }) {
  const items = columns.map((col) => ({ col, value: rawValue(row, col) })).filter((x) => !isBlank(x.value));
  if (!items.length) return null;
  return (
    <Box data-testid="folded-fields" sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 2, rowGap: 0.75, alignItems: 'center', textAlign: 'left', mb: 1 }}>
      {items.map(({ col, value }) => (
        <Fragment key={col.field}>
          <Typography variant="caption" color="text.secondary">
            {col.header}
          </Typography>
          <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>{value}</Box>
        </Fragment>
      ))}
    </Box>
  );
}

/** A cell with nothing to show: phone cards skip its row instead of printing a label over a blank. */
export const isBlank = (v: ReactNode) => v === null || v === undefined || v === false || v === '' || v === '-';

/** The console's table: sortable headers, skeleton while loading, empty and error states, cards on phones. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rows, rowKey, loading, error, selection, pagination } = props;
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const below = {
    md: useMediaQuery(theme.breakpoints.down('md')),
    lg: useMediaQuery(theme.breakpoints.down('lg')),
    laptop: useMediaQuery(theme.breakpoints.down(LAPTOP)),
    xl: useMediaQuery(theme.breakpoints.down('xl')),
  };
  const [open, setOpen] = useState<Set<Id>>(new Set());

  const toggleOpen = (id: Id) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const ids = rows.map(rowKey);
  const chosen = new Set(selection?.selected ?? []);
  const allChosen = ids.length > 0 && ids.every((id) => chosen.has(id));
  const someChosen = ids.some((id) => chosen.has(id));
  const toggleAll = () => selection?.onChange(allChosen ? [] : ids);
  const toggleOne = (id: Id) => selection?.onChange(chosen.has(id) ? selection.selected.filter((x) => x !== id) : [...selection.selected, id]);

  const visible = columns.filter((c) => !(phone && c.hideOnPhone) && !(c.hideBelow && below[c.hideBelow]));
  // Secondary columns the width leaves out open with the row, above the table's own expanded content.
  const folded = [...(props.folded ?? []), ...columns.filter((c) => c.hideBelow && below[c.hideBelow])].filter((c) => !(phone && c.hideOnPhone));
  const renderExpanded =
    folded.length > 0
      ? (row: T) => (
          <>
            <FoldedFields row={row} columns={folded} />
            {props.renderExpanded?.(row)}
          </>
        )
      : props.renderExpanded;
  const pin = (col: DataColumn<T>, head = false) =>
    col.pinned ? { position: 'sticky' as const, right: 0, zIndex: head ? 3 : 1, bgcolor: 'background.paper', boxShadow: (th: Theme) => `-6px 0 6px -6px ${th.palette.divider}` } : {};
  const showSkeleton = loading && rows.length === 0 && !error;

  // Tables without `updatedAt`: the rows are as old as the last settled render without an error.
  const settledAt = useRef(Date.now());
  useEffect(() => {
    if (!error && !loading) settledAt.current = Date.now();
  });
  const stale = Boolean(error) && rows.length > 0 && (
    <StaleBanner error={error} updatedAt={props.updatedAt || settledAt.current} onRetry={props.onRetry} retrying={loading} />
  );

  let body: ReactNode;
  if (error && rows.length === 0) {
    body = (
      <Alert
        severity="error"
        data-testid="table-error"
        sx={{ m: 2 }}
        action={
          props.onRetry && (
            <Button color="inherit" size="small" onClick={props.onRetry}>
              {t('table.retry')}
            </Button>
          )
        }
      >
        {describeError(error, t).text}
      </Alert>
    );
  } else if (!showSkeleton && rows.length === 0) {
    body = (
      <Stack data-testid="table-empty" spacing={1} sx={{ py: 6, color: 'text.secondary', alignItems: 'center' }}>
        <InboxOutlined sx={{ fontSize: 44 }} color="disabled" />
        <Typography>{props.emptyText ?? t('table.empty')}</Typography>
      </Stack>
    );
  }

  const expandButton = (id: Id) => (
    <IconButton size="small" aria-label={t('table.expand')} aria-expanded={open.has(id)} onClick={() => toggleOpen(id)}>
      {open.has(id) ? <KeyboardArrowUp fontSize="small" /> : <KeyboardArrowDown fontSize="small" />}
    </IconButton>
  );

  // While the first page loads the counts are unknown: a skeleton, not "0-0 of 0".
  const paginator = pagination && showSkeleton ? (
    <Stack direction="row" data-testid="paginator-skeleton" sx={{ justifyContent: 'flex-end', px: 2, py: 1.5 }}>
      <Skeleton width={phone ? 200 : 320} height={28} />
    </Stack>
  ) : pagination && (
    <TablePagination
      sx={phone ? PHONE_PAGINATOR : undefined}
      component="div"
      count={pagination.total}
      page={pagination.total === 0 ? 0 : Math.min(pagination.page, Math.max(0, Math.ceil(pagination.total / pagination.pageSize) - 1))}
      rowsPerPage={pagination.pageSize}
      rowsPerPageOptions={pagination.options ?? PAGE_SIZE_OPTIONS}
      onPageChange={(_e, p) => pagination.onPage(p)}
      onRowsPerPageChange={(e) => pagination.onPageSize(Number(e.target.value))}
      labelRowsPerPage={phone ? '' : t('table.rowsPerPage')}
      labelDisplayedRows={({ from, to, count }) =>
        pagination.capped ? t('table.displayedCapped', { from, to, count: formatNumber(count, i18n.language) }) : t('table.displayed', { from, to, count })
      }
      showFirstButton
      showLastButton={!pagination.capped}
    />
  );

  if (phone) {
    return (
      <Box data-testid="data-table" data-layout="cards">
        {loading && <LinearProgress sx={{ mb: 1 }} />}
        {stale}
        {body}
        {showSkeleton &&
          Array.from({ length: 3 }, (_, i) => <Skeleton key={i} variant="rounded" height={96} sx={{ mb: 1 }} />)}
        <Stack spacing={1}>
          {rows.map((row) => {
            const id = rowKey(row);
            return (
              <Card key={id} data-testid="table-row" sx={{ p: 1.5 }}>
                {(selection || renderExpanded) && (
                  <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                    {selection ? <Checkbox size="small" checked={chosen.has(id)} onChange={() => toggleOne(id)} /> : <span />}
                    {renderExpanded && expandButton(id)}
                  </Stack>
                )}
                {visible.map((col) => {
                  const value = cellValue(row, col);
                  if (isBlank(value)) return null;
                  return (
                    <Stack key={col.field} direction="row" spacing={2} sx={{ py: 0.5, justifyContent: 'space-between', alignItems: 'center' }}>
                      <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
                        {col.header}
                      </Typography>
                      <Box sx={{ textAlign: 'right', minWidth: 0 }}>{value}</Box>
                    </Stack>
                  );
                })}
                {renderExpanded && (
                  <Collapse in={open.has(id)} unmountOnExit>
                    <Box sx={{ pt: 1 }}>{renderExpanded(row)}</Box>
                  </Collapse>
                )}
              </Card>
            );
          })}
        </Stack>
        {paginator}
      </Box>
    );
  }

  const span = visible.length + (selection ? 1 : 0) + (renderExpanded ? 1 : 0);
  return (
    <Box data-testid="data-table" data-layout="table">
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      {stale}
      <TableContainer>
        <Table size="small" sx={{ '& .MuiTableCell-root': { px: 1 }, '& .MuiTableCell-root:first-of-type': { pl: 2 }, '& .MuiTableCell-root:last-of-type': { pr: 2 } }}>
          <TableHead>
            <TableRow>
              {renderExpanded && <TableCell padding="checkbox" />}
              {selection && (
                <TableCell padding="checkbox">
                  <Checkbox size="small" checked={allChosen} indeterminate={someChosen && !allChosen} onChange={toggleAll} slotProps={{ input: { 'aria-label': t('table.selectAll') } }} />
                </TableCell>
              )}
              {visible.map((col) => {
                const active = props.sort?.field === col.field;
                return (
                  <TableCell key={col.field} align={col.align} sx={{ width: col.width, wordBreak: 'keep-all', fontWeight: 600, ...pin(col, true) }} sortDirection={active ? props.sort?.order : false}>
                    {col.sortable && props.onSort ? (
                      <TableSortLabel active={active} direction={active ? props.sort?.order : 'asc'} onClick={() => props.onSort?.(col.field)}>
                        {col.header}
                      </TableSortLabel>
                    ) : (
                      col.header
                    )}
                    {col.headerHint && (
                      <Tooltip title={col.headerHint}>
                        <HelpOutline data-testid={`header-hint-${col.field}`} sx={{ fontSize: 15, ml: 0.5, verticalAlign: 'middle', color: 'text.secondary' }} />
                      </Tooltip>
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>
            {showSkeleton &&
              Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <TableRow key={`skeleton-${i}`} data-testid="table-skeleton">
                  {Array.from({ length: span }, (_, j) => (
                    <TableCell key={j}>
                      <Skeleton />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            {body && (
              <TableRow>
                <TableCell colSpan={span} sx={{ border: 0 }}>
                  {body}
                </TableCell>
              </TableRow>
            )}
            {rows.map((row, index) => {
              const id = rowKey(row);
              return (
                <Fragment key={id}>
                  <TableRow hover data-testid="table-row" selected={chosen.has(id)} sx={[renderExpanded ? { '& > td': { borderBottom: open.has(id) ? 0 : undefined } } : {}, props.rowSx?.(row, index) ?? {}] as SxProps<Theme>}>
                    {renderExpanded && <TableCell padding="checkbox">{expandButton(id)}</TableCell>}
                    {selection && (
                      <TableCell padding="checkbox">
                        <Checkbox size="small" checked={chosen.has(id)} onChange={() => toggleOne(id)} />
                      </TableCell>
                    )}
                    {visible.map((col) => (
                      <TableCell key={col.field} align={col.align} sx={pin(col)}>
                        {cellValue(row, col)}
                      </TableCell>
                    ))}
                  </TableRow>
                  {renderExpanded && open.has(id) && (
                    <TableRow>
                      <TableCell colSpan={span} sx={{ bgcolor: 'action.hover', py: 1.5 }}>
                        {renderExpanded(row)}
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {paginator}
    </Box>
  );
}
