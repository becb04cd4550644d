import { useTranslation } from 'react-i18next';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { CancelButton, PromptButton, PromptFrame } from './prompt-frame';

/** Confirms deleting a share link (used by the shares table). */
export function ShareDeletePrompt({ share, onConfirm }: PromptData['shareDelete']) {
  const { t } = useTranslation();
  const confirm = () => {
    closePrompt();
    onConfirm();
  };
  return (
    <PromptFrame
      title={t('prompts.shareDeleteTitle')}
      testId="shareDelete"
      onSubmit={confirm}
      actions={
        <>
          <CancelButton />
          <PromptButton kind="danger" submit label={t('buttons.delete')} testId="prompt-confirm" />
        </>
      }
    >
      <p>{t('prompts.shareDeleteMessage', { path: share.path })}</p>
    </PromptFrame>
  );
}
