import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Share } from '../../../server/contract/share';
import { copyText, createLink, linksOf, openLinks, removeLink, shareUrl } from '../../actions/share';
import { showError } from '../../state/notices.state';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { Icon } from '../ui/icon';
import { PromptButton, PromptFrame } from './prompt-frame';
import { ShareCreate } from './share-create';
import { formatExact, formatRelative } from '../ui/format';

function LinkRow({ share, onDelete }: { share: Share; onDelete(): void }) {
  const { t, i18n } = useTranslation();
  const url = shareUrl(share.hash);
  const when = share.expire === 0 ? t('prompts.permanent') : t('prompts.expires', { when: formatRelative(share.expire * 1000, i18n.language) });
  return (
    <li className="share__link" data-testid="share-link" data-hash={share.hash}>
      <div className="share__info">
        <a className="share__url" href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </a>
        <span className="share__meta" title={share.expire ? formatExact(share.expire * 1000, i18n.language) : undefined}>
          {share.hasPassword && <Icon name="lock" className="share__lock" />}
          {share.hasPassword && <span className="sr-only">{t('prompts.passwordProtected')}</span>}
          {when}
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

/**
 * The share dialog (spec §4): list mode and create mode. Opening loads the links (creating a permanent one when
 * there are none); creating returns to the list; deleting the last link switches to create mode.
 */
export function SharePrompt({ item }: PromptData['share']) {
  const { t } = useTranslation();
  const [links, setLinks] = useState<Share[] | null>(null);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    let live = true;
    openLinks(item.path).then(
      (list) => {
        if (!live) return;
        setLinks(list);
        setCreating(list.length === 0);
      },
      (e: unknown) => {
        if (!live) return;
        showError(e);
        setLinks([]);
        setCreating(true);
      },
    );
    return () => {
      live = false;
    };
  }, [item.path]);

  const refresh = async () => {
    const list = await linksOf(item.path).catch((e: unknown) => (showError(e), [] as Share[]));
    setLinks(list);
    return list;
  };

  const remove = async (hash: string) => {
    if (!(await removeLink(hash))) return;
    const list = await refresh();
    if (list.length === 0) setCreating(true);
  };

  if (links !== null && creating) {
    return (
      <ShareCreate
        name={item.name}
        onCreate={async (opts) => {
          if (!(await createLink(item.path, opts))) return;
          await refresh();
          setCreating(false);
        }}
        // Leaving create mode with no links closes the dialog; otherwise it goes back to the list.
        onCancel={() => (links.length === 0 ? closePrompt() : setCreating(false))}
      />
    );
  }

  return (
    <PromptFrame
      title={t('prompts.shareTitle')}
      testId="share"
      onSubmit={closePrompt}
      wide
      actions={
        <>
          <PromptButton label={t('buttons.newLink')} onClick={() => setCreating(true)} testId="share-new" disabled={links === null} />
          <PromptButton kind="primary" submit label={t('buttons.close')} testId="prompt-confirm" />
        </>
      }
    >
      <p className="prompt__subject">{item.name}</p>
      {links === null ? (
        <p className="status-text">{t('files.loading')}</p>
      ) : (
        <ul className="share__links" aria-label={t('prompts.shareLinks')} data-testid="share-links">
          {links.map((s) => (
            <LinkRow key={s.hash} share={s} onDelete={() => void remove(s.hash)} />
          ))}
        </ul>
      )}
    </PromptFrame>
  );
}
