import { useTranslation } from 'react-i18next';
import type { SortBy } from '../../../server/contract/user';
import { sortListing } from '../../state/files.state';
import { Icon } from '../ui/icon';

const FIELDS = [
  ['name', 'files.name', 'files.sortByName'],
  ['size', 'files.size', 'files.sortBySize'],
  ['modified', 'files.modified', 'files.sortByModified'],
] as const;

/**
 * Whether a sort shows smallest-first. The server inverts names: asc=false lists A→Z, while for size and date
 * asc=false lists the largest and newest first (reference §4.1).
 */
const risesUp = (by: string, asc: boolean) => (by === 'name' ? !asc : asc);

/** The sort headers: name, size, modified; clicking toggles the direction, saves it and reloads. */
export function SortBar({ sorting }: { sorting: { by: string; asc: boolean } | undefined }) {
  const { t } = useTranslation();
  return (
    <div className="sort-bar" role="toolbar" aria-label={t('files.contents')}>
      {FIELDS.map(([by, label, hint]) => {
        const active = sorting?.by === by;
        const up = active && risesUp(by, sorting.asc);
        return (
          <button
            key={by}
            type="button"
            className={`sort-bar__btn sort-bar__btn--${by}${active ? ' is-active' : ''}`}
            onClick={() => void sortListing(by as SortBy)}
            aria-label={`${t(hint)}${active ? ` (${up ? t('files.ascending') : t('files.descending')})` : ''}`}
            aria-pressed={active}
            data-testid={`sort-${by}`}
            data-direction={active ? (up ? 'up' : 'down') : undefined}
          >
            <span>{t(label)}</span>
            {active && <Icon name={up ? 'arrowUp' : 'arrowDown'} className="sort-bar__arrow" />}
          </button>
        );
      })}
    </div>
  );
}
