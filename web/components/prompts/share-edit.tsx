import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Share } from '../../../server/contract/share';
import { saveLink } from '../../actions/share-edit';
import { isApiError } from '../../api/client';
import { MAX_SHARE_DURATION } from '../../api/shares';
import { RelativeTime } from '../ui/relative-time';
import { PromptButton, PromptFrame } from './prompt-frame';
import { draftOf, draftProblems, editChange, type ShareDraft } from './share-draft';
import { ShareDurationFields } from './share-duration-fields';
import { ShareOptions } from './share-options';

/** The lifetime choice of an edit: keep, never, or a new count of units from now. */
function Expiry({ share, draft, set, bad }: { share: Share; draft: ShareDraft; set: <K extends keyof ShareDraft>(k: K, v: ShareDraft[K]) => void; bad: boolean }) {
  const { t } = useTranslation();
  return (
    <fieldset className="share-options__group">
      <legend>
        {t('shareEdit.expiry')}: {share.expire === 0 ? t('prompts.permanent') : <RelativeTime at={share.expire * 1000} />}
      </legend>
      <select className="input" name="expiry" aria-label={t('shareEdit.expiry')} value={draft.expiry} onChange={(e) => set('expiry', e.target.value as ShareDraft['expiry'])} data-testid="share-expiry">
        <option value="keep">{t('shareEdit.expiryKeep')}</option>
        <option value="never">{t('shareEdit.expiryNever')}</option>
        <option value="set">{t('shareEdit.expirySet')}</option>
      </select>
      {draft.expiry === 'set' && <ShareDurationFields draft={draft} set={set} bad={bad} />}
    </fieldset>
  );
}

/**
 * Edits one link in place (PATCH: the URL stays): lifetime, password, and the v2 options. Only what changed is
 * sent; the server's refusal (a taken slug, an upload mode on a file) is shown in the form.
 */
export function ShareEdit({ share, isDir, onSaved, onCancel }: { share: Share; isDir?: boolean; onSaved(s: Share): void; onCancel(): void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ShareDraft>(() => draftOf(share));
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const set = <K extends keyof ShareDraft>(key: K, value: ShareDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const bad = draftProblems(draft, MAX_SHARE_DURATION);
  const submit = async () => {
    if (bad.length || busy) return;
    setBusy(true);
    setRefusal('');
    try {
      onSaved(await saveLink(share.hash, editChange(draft, share)));
    } catch (e) {
      setRefusal(isApiError(e) ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <PromptFrame
      title={t('shareEdit.editTitle')}
      testId="share-edit"
      onSubmit={() => void submit()}
      wide
      actions={
        <>
          <PromptButton label={t('shareEdit.back')} onClick={onCancel} testId="prompt-cancel" />
          <PromptButton kind="primary" submit label={t('shareEdit.save')} testId="prompt-confirm" disabled={bad.length > 0 || busy} />
        </>
      }
    >
      <p className="prompt__subject" dir="auto">{share.path}</p>
      <Expiry share={share} draft={draft} set={set} bad={bad.includes('duration')} />
      <fieldset className="share-options__group">
        <legend>{t('shareEdit.password')}</legend>
        <select className="input" name="passwordChoice" aria-label={t('shareEdit.password')} value={draft.passwordChoice} onChange={(e) => set('passwordChoice', e.target.value as ShareDraft['passwordChoice'])} data-testid="share-password-choice">
          <option value="keep">{share.hasPassword ? t('shareEdit.passwordKeep') : t('shareEdit.passwordNone')}</option>
          <option value="set">{t('shareEdit.passwordSet')}</option>
          {share.hasPassword && <option value="remove">{t('shareEdit.passwordRemove')}</option>}
        </select>
        {draft.passwordChoice === 'set' && (
          <label className="field">
            <span className="field__label">{t('shareEdit.newPassword')}</span>
            <input className="input" type="password" name="password" autoComplete="new-password" value={draft.password} onChange={(e) => set('password', e.target.value)} data-testid="share-password" />
          </label>
        )}
      </fieldset>
      <ShareOptions draft={draft} set={set} isDir={isDir ?? true} bad={bad} secret={share.webhookSecret} />
      {refusal && (
        <p className="share-options__refusal" role="alert" data-testid="share-refusal">
          {refusal}
        </p>
      )}
    </PromptFrame>
  );
}
