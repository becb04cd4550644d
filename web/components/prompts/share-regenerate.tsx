import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Share } from '../../../server/contract/share';
import { regenerateLink } from '../../actions/share-edit';
import { PromptButton, PromptFrame } from './prompt-frame';

/** Confirms giving a link a new random address: the old one, and its readable name, stop working at once. */
export function ShareRegenerate({ share, onDone, onCancel }: { share: Share; onDone(s: Share): void; onCancel(): void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    const fresh = await regenerateLink(share.hash);
    setBusy(false);
    if (fresh) onDone(fresh);
  };
  return (
    <PromptFrame
      title={t('shareEdit.regenerateTitle')}
      testId="share-regenerate"
      onSubmit={() => void confirm()}
      actions={
        <>
          <PromptButton label={t('buttons.cancel')} onClick={onCancel} testId="prompt-cancel" />
          <PromptButton kind="danger" submit label={t('shareEdit.regenerate')} testId="prompt-confirm" disabled={busy} />
        </>
      }
    >
      <p className="prompt__subject" dir="auto">{share.path}</p>
      <p>{t('shareEdit.regenerateMessage')}</p>
    </PromptFrame>
  );
}
