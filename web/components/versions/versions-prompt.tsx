import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { auth } from '../../state/auth.state';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { loadVersions, versionsState } from '../../state/versions.state';
import { PromptButton, PromptFrame } from '../prompts/prompt-frame';
import { VersionRow } from './version-row';
import { VersionView, type ViewMode } from './version-view';
import '../../styles/versions.css';

/**
 * The Versions panel of one file: its kept versions, newest first, and below the list the selected one's preview or
 * its diff against the current content. Opened from the info prompt and the Versions action; Esc closes.
 */
export function VersionsPrompt({ item }: PromptData['versions']) {
  const { t } = useTranslation();
  const { user } = useSnapshot(auth);
  const { list, error, path } = useSnapshot(versionsState);
  const [selected, setSelected] = useState<{ id: string; mode: ViewMode } | null>(null);
  useEffect(() => {
    void loadVersions(item.path);
  }, [item.path]);

  const mine = path === item.path;
  const can = { modify: !!user?.perm.modify, delete: !!user?.perm.delete };
  const chosen = mine && selected ? list?.find((v) => v.id === selected.id) : undefined;
  let body;
  if (!mine || (list === null && error === null)) body = <p className="versions__note" role="status">{t('settings.loading')}</p>;
  else if (error !== null) body = <p className="versions__note" role="alert" data-testid="versions-error">{t('versions.loadFailed', { status: error || '000' })}</p>;
  else if (!list!.length) body = <p className="versions__note" data-testid="versions-empty">{t('versions.empty')}</p>;
  else
    body = (
      <>
        <ul className="versions__list" data-testid="versions-list" aria-label={t('versions.listLabel')}>
          {list!.map((v) => (
            <VersionRow
              key={v.id} item={item} version={v} can={can}
              showing={selected?.id === v.id ? selected.mode : null}
              onShow={(mode) => setSelected(mode ? { id: v.id, mode } : null)}
            />
          ))}
        </ul>
        {chosen && (
          <section className="versions__view" data-testid="version-view" aria-label={t(selected!.mode === 'diff' ? 'versions.diffLabel' : 'versions.previewLabel')}>
            <VersionView item={item} version={chosen} mode={selected!.mode} />
          </section>
        )}
      </>
    );

  return (
    <PromptFrame
      title={t('versions.title', { name: item.name })} testId="versions" size="large" onSubmit={closePrompt}
      actions={<PromptButton kind="primary" submit label={t('buttons.close')} testId="prompt-confirm" />}
    >
      <p className="versions__intro">{t('versions.intro')}</p>
      {body}
    </PromptFrame>
  );
}
