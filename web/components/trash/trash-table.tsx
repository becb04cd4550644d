import { useTranslation } from 'react-i18next';
import type { TrashItem } from '../../../server/contract/trash';
import { deleteForever, restoreItem } from '../../state/trash.state';
import { formatExact, formatRelative, formatSize } from '../ui/format';
import { Icon } from '../ui/icon';

const folderOf = (path: string) => path.replace(/\/[^/]*$/, '') || '/';

/** Trashed items: name, the folder it came from, when, size; restore and delete forever (confirmed by `onDelete`). */
export function TrashTable({ items, showOwner, onDelete }: { items: readonly TrashItem[]; showOwner: boolean; onDelete: (item: TrashItem) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="trash-table-wrap">
      <table className="trash-table" data-testid="trash-table">
        <thead>
          <tr>
            <th scope="col">{t('trash.name')}</th>
            <th scope="col">{t('trash.originalFolder')}</th>
            <th scope="col">{t('trash.deletedAt')}</th>
            <th scope="col">{t('trash.size')}</th>
            {showOwner && <th scope="col">{t('trash.owner')}</th>}
            <th scope="col">
              <span className="sr-only">{t('trash.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} data-testid="trash-row" data-id={item.id} data-name={item.name}>
              <td>
                <span className="trash-table__name">
                  <Icon name={item.isDir ? 'folder' : 'file'} />
                  {item.name}
                </span>
              </td>
              <td className="trash-table__cell--meta" data-testid="trash-origin">
                <bdi dir="ltr">{folderOf(item.originalPath)}</bdi>
              </td>
              <td className="trash-table__cell--meta">
                <time dateTime={new Date(item.deletedAt).toISOString()} title={formatExact(item.deletedAt, i18n.language)}>
                  {formatRelative(item.deletedAt, i18n.language)}
                </time>
              </td>
              <td className="trash-table__cell--meta">
                <bdi>{formatSize(item.size, i18n.language)}</bdi>
              </td>
              {showOwner && <td className="trash-table__cell--meta">{item.owner}</td>}
              <td className="trash-table__cell--actions">
                <span className="trash-table__actions">
                  <button type="button" className="btn btn--secondary btn--small" onClick={() => void restoreItem(item)} data-testid="trash-restore">
                    {t('trash.restore')}
                  </button>
                  <button type="button" className="settings-icon-btn settings-icon-btn--danger" onClick={() => onDelete(item)} aria-label={t('trash.deleteForever')} title={t('trash.deleteForever')} data-testid="trash-delete">
                    <Icon name="trash" />
                  </button>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
