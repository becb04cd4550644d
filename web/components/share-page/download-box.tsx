import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicResource } from '../../api/public';
import { publicDownloadUrl } from '../../api/public';
import { Icon } from '../ui/icon';
import { formatExact, formatRelative, formatSize } from '../ui/format';
import { ExtraIcon } from './icons';
import { ShareQr } from './share-qr';
import { ARCHIVE_FORMATS } from '../../../server/contract/archive';

interface Props {
  hash: string;
  path: string;
  resource: PublicResource;
  /** Selected item names (folders): the download then covers only them. */
  selected: readonly string[];
}

/** The share's summary: kind, name, date, size, download (with a format for folders), open in a tab, QR code. */
export function DownloadBox({ hash, path, resource, selected }: Props) {
  const { t, i18n } = useTranslation();
  const [algo, setAlgo] = useState<string>(ARCHIVE_FORMATS[0]);
  const token = resource.token;
  const modified = new Date(resource.modified);
  const count = resource.items?.length ?? (resource.numDirs ?? 0) + (resource.numFiles ?? 0);
  const files = selected.map((n) => `/${n}`);
  const downloadUrl = resource.isDir ? publicDownloadUrl(hash, path, { token, algo, files }) : publicDownloadUrl(hash, path, { token });
  const qrUrl = publicDownloadUrl(hash, path, { token });

  return (
    <section className="share-card share-box" data-testid="share-box">
      <div className="share-box__main">
        <div className={resource.isDir ? 'share-box__icon is-folder' : 'share-box__icon'} aria-hidden="true">
          <Icon name={resource.isDir ? 'folder' : 'file'} />
        </div>
        <div className="share-box__info">
          <p className="share-box__kind" data-testid="share-kind">{t(resource.isDir ? 'share.folder' : 'share.file')}</p>
          <h2 className="share-box__name" data-testid="share-name" title={resource.name}>{resource.name}</h2>
          <dl className="share-box__facts">
            <div>
              <dt>{t('share.modified')}</dt>
              <dd>
                <time dateTime={resource.modified} title={formatExact(modified, i18n.language)} data-testid="share-modified">
                  {formatRelative(modified, i18n.language)}
                </time>
              </dd>
            </div>
            <div>
              <dt>{t('share.size')}</dt>
              <dd data-testid="share-size">
                {resource.isDir ? t('share.itemCount', { count }) : formatSize(resource.size, i18n.language)}
              </dd>
            </div>
          </dl>
        </div>
      </div>
      <div className="share-box__actions">
        {resource.isDir && (
          <label className="share-box__format">
            <span className="sr-only">{t('share.format')}</span>
            <select className="input" value={algo} onChange={(e) => setAlgo(e.target.value)} data-testid="share-format" aria-label={t('share.format')}>
              {ARCHIVE_FORMATS.map((f) => (
                <option key={f} value={f}>{f}</option>
              ))}
            </select>
          </label>
        )}
        <a className="btn btn--primary" href={downloadUrl} download data-testid="share-download">
          <ExtraIcon name="download" />
          <span>{selected.length ? t('share.downloadSelected', { count: selected.length }) : t('share.download')}</span>
        </a>
        {!resource.isDir && (
          <a className="btn btn--secondary" href={publicDownloadUrl(hash, path, { token, inline: true })} target="_blank" rel="noopener noreferrer" data-testid="share-open">
            <ExtraIcon name="external" />
            <span>{t('share.openInNewTab')}</span>
          </a>
        )}
      </div>
      <ShareQr url={qrUrl} />
    </section>
  );
}
