import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { WebResource } from '../../api/resources';
import { Icon } from '../ui/icon';

function Item({ item }: { item: WebResource }) {
  const body = (
    <>
      <Icon name={item.isDir ? 'folder' : 'file'} className={item.isDir ? 'item__icon is-dir' : 'item__icon'} />
      <span className="item__name">{item.name}</span>
    </>
  );
  return (
    <li>
      {item.isDir ? (
        <Link href={item.url} className="item item--link" data-testid="item" data-name={item.name} data-dir="true">
          {body}
        </Link>
      ) : (
        <div className="item" data-testid="item" data-name={item.name} data-dir="false">
          {body}
        </div>
      )}
    </li>
  );
}

function Section({ title, items }: { title: string; items: WebResource[] }) {
  if (items.length === 0) return null;
  return (
    <section className="listing__section">
      <h2 className="listing__heading">{title}</h2>
      <ul className="listing__items">
        {items.map((item) => (
          <Item key={item.name} item={item} />
        ))}
      </ul>
    </section>
  );
}

/** The items of a folder in a Folders section and a Files section; an empty folder shows the 'lonely' message. */
export function FileList({ items }: { items: readonly WebResource[] }) {
  const { t } = useTranslation();
  if (items.length === 0) {
    return (
      <p className="listing__empty" data-testid="empty">
        {t('files.lonely')}
      </p>
    );
  }
  return (
    <div className="listing" aria-label={t('files.contents')}>
      <Section title={t('files.folders')} items={items.filter((i) => i.isDir)} />
      <Section title={t('files.files')} items={items.filter((i) => !i.isDir)} />
    </div>
  );
}
