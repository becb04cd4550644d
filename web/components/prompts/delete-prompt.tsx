import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteItems } from '../../actions/files';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { trashEnabled, trashState } from '../../state/trash.state';
import { CancelButton, PromptButton, PromptFrame } from './prompt-frame';

/**
 * Confirms deleting the selection (or the file on show) and says where it goes: to the trash (Enter confirms), or,
 * when the trash is off for the user, for good (then Cancel has the focus, so Enter does not destroy anything).
 */
export function DeletePrompt({ items, onDone }: PromptData['delete']) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  // Known from the session's first answer (prefetched by the layout), and asked again now in case it changed.
  const [toTrash, setToTrash] = useState<boolean | null>(trashState.settings ? trashState.settings.enabled : null);
  useEffect(() => {
    let live = true;
    void trashEnabled(true).then((on) => live && setToTrash(on));
    return () => {
      live = false;
    };
  }, []);
  const submit = async () => {
    if (busy) return;
    setBusy(true);
    const ok = await deleteItems(items);
    closePrompt();
    if (ok) onDone?.();
  };
  const message = items.length === 1 ? t('prompts.deleteMessageSingle') : t('prompts.deleteMessageMultiple', { count: items.length });
  return (
    <PromptFrame
      title={t('prompts.deleteTitle')}
      testId="delete"
      onSubmit={() => void submit()}
      enterSubmits={toTrash === true}
      actions={
        <>
          <CancelButton focus={toTrash === false} />
          <PromptButton kind="danger" submit label={toTrash === false ? t('trash.deletePermanently') : t('buttons.delete')} testId="prompt-confirm" disabled={busy || toTrash === null} />
        </>
      }
    >
      <p>{message}</p>
      {items.length === 1 && <p className="prompt__subject">{items[0]?.name}</p>}
      {toTrash !== null && (
        <p className={toTrash ? 'prompt__hint' : 'prompt__hint is-error'} data-testid="delete-where">
          {toTrash ? t('trash.movesToTrash') : t('trash.permanentWarning')}
        </p>
      )}
    </PromptFrame>
  );
}
