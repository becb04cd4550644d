import Papa from 'papaparse';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { delimiterFor } from './viewer-kind';
import '../../styles/viewers.css';
import { formatCount } from '../ui/format';

/** Rows drawn at once; the rest are pages (a 10 MB file has ~100,000 rows: drawn whole, the tab would stall). */
const PAGE = 500;
/** A file too big to load as text is streamed from the server, and reading stops after this many rows. */
const STREAM_ROWS = 50_000;

type Sort = { col: number; dir: 1 | -1 } | null;
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Parses text already loaded, or streams `url` (chunked range reads) up to STREAM_ROWS rows. */
function useRows(source: string | undefined, url: string | undefined, name: string) {
  const [state, setState] = useState<{ rows: string[][]; cut: boolean; failed: boolean; done: boolean }>({ rows: [], cut: false, failed: false, done: false });
  useEffect(() => {
    const delimiter = delimiterFor(name);
    if (source !== undefined) {
      const r = Papa.parse<string[]>(source, { delimiter, skipEmptyLines: 'greedy' });
      setState({ rows: r.data, cut: false, failed: false, done: true });
      return;
    }
    if (!url) return;
    const rows: string[][] = [];
    let stopped = false;
    Papa.parse<string[]>(url, {
      download: true,
      delimiter,
      skipEmptyLines: 'greedy',
      chunkSize: 1024 * 1024,
      chunk: (res, parser) => {
        if (stopped) return parser.abort();
        rows.push(...res.data);
        if (rows.length >= STREAM_ROWS) {
          rows.length = STREAM_ROWS;
          stopped = true;
          parser.abort();
          setState({ rows: [...rows], cut: true, failed: false, done: true });
        }
      },
      complete: () => !stopped && setState({ rows, cut: false, failed: false, done: true }),
      error: () => setState({ rows: [], cut: false, failed: true, done: true }),
    });
    return () => {
      stopped = true;
    };
  }, [source, url, name]);
  return state;
}

/** CSV/TSV as a table: the first row is the header; a header click sorts (again: reverses), numbers as numbers. */
export function CsvView({ source, url, name }: { source?: string; url?: string; name: string }) {
  const { t, i18n } = useTranslation();
  const { rows, cut, failed, done } = useRows(source, url, name);
  const [sort, setSort] = useState<Sort>(null);
  const [page, setPage] = useState(0);
  const [head, ...body] = rows;
  const sorted = useMemo(() => {
    if (!sort) return body;
    return [...body].sort((a, b) => sort.dir * collator.compare(a[sort.col] ?? '', b[sort.col] ?? ''));
  }, [rows, sort]); // eslint-disable-line react-hooks/exhaustive-deps
  if (failed) return <p className="doc-viewer__status">{t('preview.loadFailed')}</p>;
  if (!done) return <p className="doc-viewer__status">{t('editor.loading')}</p>;
  if (!head) return <p className="doc-viewer__status">{t('viewers.emptyTable')}</p>;
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE));
  const shown = sorted.slice(page * PAGE, (page + 1) * PAGE);
  const fmt = (n: number) => formatCount(n, i18n.language);
  const toggle = (col: number) => {
    setSort((s) => (s?.col === col ? { col, dir: s.dir === 1 ? -1 : 1 } : { col, dir: 1 }));
    setPage(0);
  };
  return (
    <div className="csv-view" data-testid="csv">
      <p className="csv-view__note" data-testid="csv-note">
        {t('viewers.rows', { count: body.length, shown: fmt(body.length) })}
        {cut && ` ${t('viewers.rowsCut', { count: STREAM_ROWS, shown: fmt(STREAM_ROWS) })}`}
      </p>
      <div className="csv-view__scroll" tabIndex={0} role="region" aria-label={name}>
        <table className="csv-view__table">
          <thead>
            <tr>
              {head.map((h, i) => (
                <th key={i} scope="col" aria-sort={sort?.col === i ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="csv-view__sort" data-testid="csv-sort" title={t('viewers.sortBy', { column: h })} onClick={() => toggle(i)}>
                    <span dir="auto">{h}</span>
                    <span className="csv-view__arrow" aria-hidden="true">{sort?.col === i ? (sort.dir === 1 ? '▲' : '▼') : ''}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((r, i) => (
              <tr key={page * PAGE + i}>
                {head.map((_, j) => (
                  <td key={j} dir="auto">
                    {r[j] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav className="csv-view__pages" aria-label={t('viewers.pages')}>
          <button type="button" className="btn btn--secondary" disabled={page === 0} onClick={() => setPage(page - 1)} data-testid="csv-prev">
            {t('viewers.previousPage')}
          </button>
          <span data-testid="csv-page">{t('viewers.page', { page: fmt(page + 1), pages: fmt(pages) })}</span>
          <button type="button" className="btn btn--secondary" disabled={page >= pages - 1} onClick={() => setPage(page + 1)} data-testid="csv-next">
            {t('viewers.nextPage')}
          </button>
        </nav>
      )}
    </div>
  );
}
