import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteItems } from '../../actions/files';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { CancelButton, PromptButton, PromptFrame } from './prompt-frame';

/** Confirms deleting the selection (or the file on show); Enter confirms. */
export function DeletePrompt({ items, onDone }: PromptData['delete']) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
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
      enterSubmits
      actions={
        <>
          <CancelButton />
          <PromptButton kind="danger" submit label={t('buttons.delete')} testId="prompt-confirm" disabled={busy} />
        </>
      }
    >
      <p>{message}</p>
      {items.length === 1 && <p className="prompt__subject">{items[0]?.name}</p>}
    </PromptFrame>
  );
}
