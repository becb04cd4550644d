import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_SHARE_DURATION, type NewShare } from '../../api/shares';
import { PromptButton, PromptFrame } from './prompt-frame';
import { draftOf, draftProblems, optionsChange, type ShareDraft } from './share-draft';
import { ShareDurationFields } from './share-duration-fields';
import { ShareOptions } from './share-options';

/**
 * Create mode of the share dialog: a duration (empty = permanent) in a unit, an optional password (the reference's
 * fields), and folded away under "More options" the v2 fields, sent only when set.
 */
export function ShareCreate({ name, isDir, onCreate, onCancel }: { name: string; isDir: boolean; onCreate(opts: NewShare): Promise<string | null>; onCancel(): void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ShareDraft>(draftOf);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const set = <K extends keyof ShareDraft>(key: K, value: ShareDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const bad = draftProblems(draft, MAX_SHARE_DURATION);
  const n = draft.duration.trim() === '' ? 0 : Number(draft.duration);
  const submit = async () => {
    if (bad.length || busy) return;
    setBusy(true);
    setRefusal('');
    const reason = await onCreate({ ...optionsChange(draft), password: draft.password, unit: draft.unit, ...(n > 0 ? { expires: n } : {}) });
    setBusy(false);
    if (reason) setRefusal(reason);
  };
  return (
    <PromptFrame
      title={t('prompts.shareTitle')}
      testId="share-create"
      onSubmit={() => void submit()}
      wide
      actions={
        <>
          <PromptButton label={t('buttons.cancel')} onClick={onCancel} testId="prompt-cancel" />
          <PromptButton kind="primary" submit label={t('buttons.create')} testId="prompt-confirm" disabled={bad.length > 0 || busy} />
        </>
      }
    >
      <p className="prompt__subject">{name}</p>
      <ShareDurationFields draft={draft} set={set} bad={bad.includes('duration')} placeholder={t('prompts.permanent')} />
      <p className="prompt__hint">{t('prompts.durationHint')}</p>
      <label className="field">
        <span className="field__label">{t('prompts.optionalPassword')}</span>
        <input className="input" type="password" name="password" autoComplete="new-password" value={draft.password} onChange={(e) => set('password', e.target.value)} data-testid="share-password" />
      </label>
      <details className="share-more" data-testid="share-more">
        <summary>{t('shareEdit.moreOptions')}</summary>
        <ShareOptions draft={draft} set={set} isDir={isDir} bad={bad} />
      </details>
      {refusal && (
        <p className="share-options__refusal" role="alert" data-testid="share-refusal">
          {refusal}
        </p>
      )}
    </PromptFrame>
  );
}
