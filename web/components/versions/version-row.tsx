import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VersionInfo } from '../../../server/contract/versions';
import type { WebResource } from '../../api/resources';
import { versionUrl } from '../../api/versions';
import { deleteFileVersion, restoreFileVersion } from '../../state/versions.state';
import { formatExact, formatRelative, formatSize } from '../ui/format';
import { Icon } from '../ui/icon';
import { isTextItem, type ViewMode } from './version-view';

interface Props {
  item: WebResource;
  version: VersionInfo;
  can: { modify: boolean; delete: boolean };
  /** What this row shows below the list, if it is the selected one. */
  showing: ViewMode | null;
  onShow: (mode: ViewMode | null) => void;
}

/** A small labelled button of a version row (the label stays visible: these are the panel's main actions). */
function RowButton({ label, onClick, testId, pressed, danger, disabled }: { label: string; onClick: () => void; testId: string; pressed?: boolean; danger?: boolean; disabled?: boolean }) {
  return (
    <button type="button" className={danger ? 'versions__btn versions__btn--danger' : 'versions__btn'} onClick={onClick} data-testid={testId} aria-pressed={pressed} disabled={disabled}>
      {label}
    </button>
  );
}

/** One version: when (relative; exact on hover and focus), size, who and why; download, preview, compare, restore, delete. */
export function VersionRow({ item, version, can, showing, onShow }: Props) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const exact = formatExact(version.replacedAt, lng);
  const previewable = item.type === 'image' || isTextItem(item);
  const act = async (run: () => Promise<boolean>) => {
    setBusy(true);
    await run();
    setBusy(false);
  };
  const toggle = (mode: ViewMode) => onShow(showing === mode ? null : mode);

  return (
    <li className={showing ? 'versions__row is-selected' : 'versions__row'} data-testid="version-row" data-version={version.id}>
      <div className="versions__meta">
        <time className="versions__when" dateTime={new Date(version.replacedAt).toISOString()} title={exact} data-exact={exact} tabIndex={0} aria-label={exact}>
          {formatRelative(version.replacedAt, lng)}
        </time>
        <span className="versions__detail">
          {formatSize(version.size, lng)} · {version.replacedBy || t('versions.system')} · {t(`versions.cause.${version.cause}`)}
        </span>
      </div>
      {confirming ? (
        <div className="versions__actions" role="group" aria-label={t('versions.confirmDelete')}>
          <span className="versions__confirm">{t('versions.confirmDelete')}</span>
          <RowButton label={t('buttons.delete')} danger disabled={busy} testId="version-delete-confirm" onClick={() => void act(() => deleteFileVersion(item.path, version.id))} />
          <RowButton label={t('buttons.cancel')} testId="version-delete-cancel" onClick={() => setConfirming(false)} />
        </div>
      ) : (
        <div className="versions__actions">
          {previewable && <RowButton label={t('versions.preview')} pressed={showing === 'preview'} testId="version-preview" onClick={() => toggle('preview')} />}
          {isTextItem(item) && <RowButton label={t('versions.compare')} pressed={showing === 'diff'} testId="version-diff-button" onClick={() => toggle('diff')} />}
          <a className="versions__btn" href={versionUrl(item.path, version.id, false)} download={item.name} data-testid="version-download" aria-label={t('versions.downloadLabel', { when: exact })}>
            <Icon name="download" />
          </a>
          {can.modify && <RowButton label={t('versions.restore')} disabled={busy} testId="version-restore" onClick={() => void act(() => restoreFileVersion(item.path, version.id))} />}
          {can.delete && <RowButton label={t('buttons.delete')} danger testId="version-delete" onClick={() => setConfirming(true)} />}
        </div>
      )}
    </li>
  );
}
