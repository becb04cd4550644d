import { useTranslation } from 'react-i18next';
import type { Share } from '../../../server/contract/share';
import { copyText, shareUrl } from '../../actions/share';
import { linkName } from '../../actions/share-edit';
import { formatCount, formatExact, formatRelative } from '../ui/format';
import { Icon } from '../ui/icon';
import { RelativeTime } from '../ui/relative-time';

export type LinkTool = 'edit' | 'toggle' | 'regenerate' | 'log';

/** A link's use: views, downloads (of the cap), uploads and the last access, as a short line. */
export function ShareCounters({ share }: { share: Share }) {
  const { t, i18n } = useTranslation();
  const c = share.counters;
  if (!c) return null;
  const n = (v: number) => formatCount(v, i18n.language);
  const downloads = share.maxDownloads ? `${n(c.downloads)}/${n(share.maxDownloads)}` : n(c.downloads);
  return (
    <span className="share__counters" data-testid="share-counters">
      <span>{t('shareEdit.views')} {n(c.views)}</span>
      <span>{t('shareEdit.downloads')} {downloads}</span>
      {share.mode && share.mode !== 'view' && <span>{t('shareEdit.uploads')} {n(c.uploads)}</span>}
      <span>
        {t('shareEdit.lastAccess')} <RelativeTime at={c.lastAccess * 1000} empty={t('shareEdit.never')} />
      </span>
    </span>
  );
}

/**
 * One link of the share dialog: its address (the readable name when set), expiry, password, mode and state, its
 * counters, copy and delete (the reference's two buttons), and the v2 tools below.
 */
export function ShareLinkRow({ share, onDelete, onTool }: { share: Share; onDelete(): void; onTool(tool: LinkTool): void }) {
  const { t, i18n } = useTranslation();
  const url = shareUrl(linkName(share));
  const when = share.expire === 0 ? t('prompts.permanent') : t('prompts.expires', { when: formatRelative(share.expire * 1000, i18n.language) });
  const state = share.disabled ? 'disabled' : share.state === 'exhausted' ? 'exhausted' : null;
  return (
    <li className={state ? 'share__link is-off' : 'share__link'} data-testid="share-link" data-hash={share.hash}>
      <div className="share__info">
        <a className="share__url" href={url} target="_blank" rel="noopener noreferrer" dir="ltr">
          {url}
        </a>
        <span className="share__meta" title={share.expire ? formatExact(share.expire * 1000, i18n.language) : undefined}>
          {share.hasPassword && <Icon name="lock" className="share__lock" />}
          {share.hasPassword && <span className="sr-only">{t('prompts.passwordProtected')}</span>}
          {when}
          {share.mode && share.mode !== 'view' && <span className="share__tag">{t(`shareEdit.modeShort.${share.mode}`)}</span>}
          {state && (
            <span className="share__tag share__tag--off" data-testid="share-state">
              {t(`shareEdit.states.${state}`)}
            </span>
          )}
        </span>
        <ShareCounters share={share} />
        <span className="share__tools">
          <button type="button" className="link-button" onClick={() => onTool('edit')} data-testid="share-edit">
            {t('shareEdit.edit')}
          </button>
          <button type="button" className="link-button" onClick={() => onTool('toggle')} data-testid="share-toggle">
            {share.disabled ? t('shareEdit.enable') : t('shareEdit.disable')}
          </button>
          <button type="button" className="link-button" onClick={() => onTool('regenerate')} data-testid="share-regenerate">
            {t('shareEdit.regenerate')}
          </button>
          <button type="button" className="link-button" onClick={() => onTool('log')} data-testid="share-log">
            {t('shareEdit.log')}
          </button>
        </span>
      </div>
      <button type="button" className="icon-btn" aria-label={t('buttons.copyLink')} title={t('buttons.copyLink')} onClick={() => void copyText(url)} data-testid="share-copy">
        <Icon name="copy" />
      </button>
      <button type="button" className="icon-btn icon-btn--danger" aria-label={t('buttons.deleteLink')} title={t('buttons.deleteLink')} onClick={onDelete} data-testid="share-delete">
        <Icon name="delete" />
      </button>
    </li>
  );
}
