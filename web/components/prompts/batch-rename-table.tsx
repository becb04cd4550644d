import { useTranslation } from 'react-i18next';
import type { Row } from '../../state/batch-rename';

/** What happened to a row once Apply ran and stopped on an error. */
export type RowResult = { kind: 'renamed' } | { kind: 'notRenamed' } | { kind: 'failed'; message: string } | { kind: 'parked'; name: string };

/** Rows past this many are summed up, not drawn: the checks still cover every item. */
const MAX_ROWS = 500;

function Status({ row, result }: { row: Row; result?: RowResult }) {
  const { t } = useTranslation();
  if (result?.kind === 'renamed') return <span className="batch__status is-ok">{t('prompts.batch.renamed')}</span>;
  if (result?.kind === 'notRenamed') return <span className="batch__status">{t('prompts.batch.notRenamed')}</span>;
  if (result?.kind === 'failed') return <span className="batch__status is-error">{t('prompts.batch.failed', { message: result.message })}</span>;
  if (result?.kind === 'parked') return <span className="batch__status is-error">{t('prompts.batch.parked', { name: result.name })}</span>;
  if (row.unchanged) return <span className="batch__status">{t('prompts.batch.unchanged')}</span>;
  if (row.problem) {
    const key = row.problem === 'tooLong' ? 'nameTooLong' : row.problem;
    return <span className="batch__status is-error" data-testid="batch-problem">{t(`prompts.batch.${key}`)}</span>;
  }
  if (row.caseWarning) return <span className="batch__status is-warning" data-testid="batch-warning">{t('prompts.batch.caseWarning')}</span>;
  return <span className="batch__status is-ok">{t('prompts.batch.ok')}</span>;
}

/** The preview: old name → new name and its state, names isolated from the page's direction. */
export function BatchRenameTable({ rows, results }: { rows: readonly Row[]; results?: readonly RowResult[] }) {
  const { t } = useTranslation();
  return (
    <div className="batch__preview" role="region" aria-label={t('prompts.batch.preview')} tabIndex={0}>
      <table className="batch__table" data-testid="batch-preview">
        <thead>
          <tr>
            <th scope="col">{t('prompts.batch.old')}</th>
            <th scope="col">{t('prompts.batch.new')}</th>
            <th scope="col">{t('prompts.batch.status')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, MAX_ROWS).map((r, k) => (
            <tr key={r.item.name} className={r.problem && !r.unchanged ? 'is-conflict' : undefined} data-testid="batch-row" data-old={r.item.name} data-new={r.to}>
              <td className="batch__name">
                <span dir="auto">{r.item.name}</span>
              </td>
              <td className="batch__name">{!r.unchanged && <span dir="auto">{r.to}</span>}</td>
              <td>
                <Status row={r} result={results?.[k]} />
              </td>
            </tr>
          ))}
          {rows.length > MAX_ROWS && (
            <tr>
              <td colSpan={3}>…</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
