import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Share } from '../../../server/contract/share';
import { linksOf, openLinks, removeLink } from '../../actions/share';
import { createLinkOrReason, setLinkDisabled } from '../../actions/share-edit';
import { showError } from '../../state/notices.state';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { PromptButton, PromptFrame } from './prompt-frame';
import { ShareCreate } from './share-create';
import { ShareLinkRow, type LinkTool } from './share-link-row';
import { ShareManage, type ManageView } from './share-manage';
import '../../styles/share-edit.css';

/**
 * The share dialog (spec §4): list mode and create mode, plus one link's edit, log or new-address view (v2).
 * Opening loads the links (creating a permanent one when there are none); creating returns to the list; deleting
 * the last link switches to create mode.
 */
export function SharePrompt({ item }: PromptData['share']) {
  const { t } = useTranslation();
  const [links, setLinks] = useState<Share[] | null>(null);
  const [creating, setCreating] = useState(false);
  const [managing, setManaging] = useState<{ share: Share; view: ManageView } | null>(null);

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

  const tool = async (share: Share, which: LinkTool) => {
    if (which !== 'toggle') return setManaging({ share, view: which });
    if (await setLinkDisabled(share.hash, !share.disabled)) await refresh();
  };

  if (links !== null && creating) {
    return (
      <ShareCreate
        name={item.name}
        isDir={item.isDir}
        onCreate={async (opts) => {
          const reason = await createLinkOrReason(item.path, opts);
          if (reason !== null) return reason;
          await refresh();
          setCreating(false);
          return null;
        }}
        // Leaving create mode with no links closes the dialog; otherwise it goes back to the list.
        onCancel={() => (links.length === 0 ? closePrompt() : setCreating(false))}
      />
    );
  }

  if (managing) {
    // Back from any view reads the links again: the counters may have moved meanwhile (the log shows visits).
    const back = () => void refresh().then(() => setManaging(null));
    return <ShareManage share={managing.share} view={managing.view} isDir={item.isDir} onDone={back} onBack={back} />;
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
            <ShareLinkRow key={s.hash} share={s} onDelete={() => void remove(s.hash)} onTool={(w) => void tool(s, w)} />
          ))}
        </ul>
      )}
    </PromptFrame>
  );
}
