import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { transferItems } from '../../actions/transfer';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { FolderPicker } from './folder-picker';
import { CancelButton, PromptButton, PromptFrame } from './prompt-frame';

/** Move or copy the selection to a folder picked in the browser; Enter confirms. */
export function TransferPrompt({ kind, items, from }: PromptData['move'] & { kind: 'move' | 'copy' }) {
  const { t } = useTranslation();
  const [dest, setDest] = useState(from);
  const onChange = useCallback((d: string) => setDest(d), []);
  const move = kind === 'move';
  // Moving into the folder the items are in would change nothing (spec §5).
  const disabled = move && dest === from;
  const submit = () => {
    if (disabled) return;
    closePrompt();
    void transferItems(move ? 'rename' : 'copy', items.map((i) => ({ from: i.path, name: i.name, isDir: i.isDir, folderSize: i.folderSize })), dest, { redirect: true });
  };
  return (
    <PromptFrame
      title={move ? t('prompts.moveTitle') : t('prompts.copyTitle')}
      testId={kind}
      onSubmit={submit}
      enterSubmits
      wide
      actions={
        <>
          <CancelButton />
          <PromptButton kind="primary" submit label={move ? t('buttons.moveFile') : t('buttons.copyFile')} testId="prompt-confirm" disabled={disabled} />
        </>
      }
    >
      <p>{move ? t('prompts.moveMessage') : t('prompts.copyMessage')}</p>
      <FolderPicker start={from} onChange={onChange} />
      <p className="prompt__hint" data-testid="prompt-destination">
        {disabled ? t('prompts.sameFolder') : t('prompts.destination', { path: dest })}
      </p>
    </PromptFrame>
  );
}
