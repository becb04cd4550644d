import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { PublicUploadRoom } from '../../../server/contract/share';
import { clearFinishedUploads, shareUpload, type DropItem } from '../../state/share-upload.state';
import { formatCount, formatSize } from '../ui/format';
import { Icon } from '../ui/icon';

/** What the link still accepts, in the visitor's words; nothing when it sets no limits. */
export function UploadLimits({ room }: { room: PublicUploadRoom }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const lines: { key: string; text: string }[] = [];
  if (room.maxFileSize > 0) lines.push({ key: 'size', text: t('sharePage.limits.fileSize', { size: formatSize(room.maxFileSize, lang) }) });
  if (room.remainingBytes !== null) lines.push({ key: 'total', text: t('sharePage.limits.total', { size: formatSize(room.remainingBytes, lang) }) });
  if (room.remainingFiles !== null) lines.push({ key: 'count', text: t('sharePage.limits.files', { n: formatCount(room.remainingFiles, lang) }) });
  if (room.allowedTypes.length) lines.push({ key: 'types', text: t('sharePage.limits.types', { types: room.allowedTypes.join(', ') }) });
  if (!lines.length) return null;
  return (
    <ul className="share-limits" aria-label={t('sharePage.limits.title')} data-testid="share-limits">
      {lines.map((l) => (
        <li key={l.key} data-limit={l.key}>{l.text}</li>
      ))}
    </ul>
  );
}

function Row({ item }: { item: DropItem }) {
  const { t, i18n } = useTranslation();
  const pct = item.size ? Math.round((item.loaded / item.size) * 100) : item.status === 'done' ? 100 : 0;
  const name = item.path.replace(/^\//, '');
  let note: string;
  if (item.status === 'failed') note = t(`sharePage.refusal.${item.refusal ?? 'failed'}`);
  else if (item.status === 'done') note = item.stored && item.stored !== item.path ? t('sharePage.upload.storedAs', { name: item.stored.replace(/^\//, '') }) : t('sharePage.upload.done');
  else if (item.status === 'queued') note = t('sharePage.upload.waiting');
  else note = `${formatSize(item.loaded, i18n.language)} / ${formatSize(item.size, i18n.language)}`;
  return (
    <li className={`share-upload is-${item.status}`} data-testid="share-upload" data-status={item.status} data-refusal={item.refusal} data-name={name}>
      <span className="share-upload__icon" aria-hidden="true">
        <Icon name={item.status === 'failed' ? 'alert' : item.status === 'done' ? 'check' : 'upload'} />
      </span>
      <span className="share-upload__name" title={name}><bdi>{name}</bdi></span>
      <progress className="share-upload__bar" max={100} value={pct} aria-label={t('sharePage.upload.progress', { name })} data-testid="share-upload-progress" />
      <span className="share-upload__note" role={item.status === 'failed' ? 'alert' : undefined}>{note}</span>
    </li>
  );
}

/** Per-file progress of this visit's uploads, with a clear message for each refused file. */
export function UploadList() {
  const { t } = useTranslation();
  const { items } = useSnapshot(shareUpload);
  if (!items.length) return null;
  const finished = items.some((i) => i.status === 'done' || i.status === 'failed');
  return (
    <section className="share-card share-uploads" aria-labelledby="share-uploads-title" data-testid="share-uploads">
      <div className="share-uploads__head">
        <h2 id="share-uploads-title" className="share-card__title">{t('sharePage.upload.listTitle')}</h2>
        {finished && (
          <button type="button" className="btn btn--secondary" onClick={clearFinishedUploads}>{t('sharePage.upload.clear')}</button>
        )}
      </div>
      <ul className="share-uploads__list" aria-live="polite">
        {items.map((i) => <Row key={i.id} item={i as DropItem} />)}
      </ul>
    </section>
  );
}
