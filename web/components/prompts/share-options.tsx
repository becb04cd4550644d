import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SHARE_MODES } from '../../api/shares';
import { slugProblem, type ShareDraft } from './share-draft';

type Set = <K extends keyof ShareDraft>(key: K, value: ShareDraft[K]) => void;

interface NumberFieldProps {
  name: 'maxDownloads' | 'maxFileSize' | 'maxTotalSize' | 'maxFiles';
  label: string;
  draft: ShareDraft;
  set: Set;
  bad: boolean;
  decimals?: boolean;
}

function NumberField({ name, label, draft, set, bad, decimals }: NumberFieldProps) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <input
        className="input"
        type="number"
        name={name}
        min={0}
        step={decimals ? 'any' : 1}
        inputMode={decimals ? 'decimal' : 'numeric'}
        value={draft[name]}
        placeholder={t('shareEdit.noLimit')}
        aria-invalid={bad || undefined}
        onChange={(e) => set(name, e.target.value)}
        data-testid={`share-${name}`}
      />
    </label>
  );
}

/**
 * The v2 fields of a link (decision 0051): what visitors may do (folders only), a readable name checked as it is
 * typed, a download cap, upload limits (upload modes), and a webhook with its signing secret once the server made one.
 */
export function ShareOptions({ draft, set, isDir, bad, secret }: { draft: ShareDraft; set: Set; isDir: boolean; bad: readonly string[]; secret?: string }) {
  const { t } = useTranslation();
  const slugHint = useId();
  const problem = slugProblem(draft.slug);
  const uploads = draft.mode !== 'view';
  return (
    <div className="share-options" data-testid="share-options">
      {isDir && (
        <label className="field">
          <span className="field__label">{t('shareEdit.mode')}</span>
          <select className="input" name="mode" value={draft.mode} onChange={(e) => set('mode', e.target.value as ShareDraft['mode'])} data-testid="share-mode">
            {SHARE_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`shareEdit.modes.${m}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field">
        <span className="field__label">{t('shareEdit.slug')}</span>
        <input
          className="input"
          name="slug"
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          value={draft.slug}
          aria-invalid={problem ? true : undefined}
          aria-describedby={slugHint}
          onChange={(e) => set('slug', e.target.value.toLowerCase())}
          data-testid="share-slug"
        />
        <span id={slugHint} className={problem ? 'share-options__hint is-error' : 'share-options__hint'} role={problem ? 'alert' : undefined} data-testid="share-slug-hint">
          {problem ? t(`shareEdit.${problem}`) : t('shareEdit.slugHint')}
        </span>
      </label>
      <NumberField name="maxDownloads" label={t('shareEdit.maxDownloads')} draft={draft} set={set} bad={bad.includes('maxDownloads')} />
      {isDir && uploads && (
        <fieldset className="share-options__group" data-testid="share-upload-limits">
          <legend>{t('shareEdit.uploadLimits')}</legend>
          <div className="share-options__grid">
            <NumberField name="maxFileSize" label={t('shareEdit.maxFileSize')} draft={draft} set={set} bad={bad.includes('maxFileSize')} decimals />
            <NumberField name="maxTotalSize" label={t('shareEdit.maxTotalSize')} draft={draft} set={set} bad={bad.includes('maxTotalSize')} decimals />
            <NumberField name="maxFiles" label={t('shareEdit.maxFiles')} draft={draft} set={set} bad={bad.includes('maxFiles')} />
          </div>
          <label className="field">
            <span className="field__label">{t('shareEdit.allowedTypes')}</span>
            <input className="input" name="allowedTypes" autoComplete="off" value={draft.allowedTypes} onChange={(e) => set('allowedTypes', e.target.value)} data-testid="share-allowedTypes" />
            <span className="share-options__hint">{t('shareEdit.allowedTypesHint')}</span>
          </label>
        </fieldset>
      )}
      {isDir && uploads && (
        <>
          <label className="field">
            <span className="field__label">{t('shareEdit.webhookUrl')}</span>
            <input
              className="input"
              type="url"
              name="webhookUrl"
              autoComplete="off"
              placeholder="https://"
              value={draft.webhookUrl}
              aria-invalid={bad.includes('webhookUrl') || undefined}
              onChange={(e) => set('webhookUrl', e.target.value)}
              data-testid="share-webhookUrl"
            />
            <span className="share-options__hint">{t('shareEdit.webhookHint')}</span>
          </label>
          {secret && (
            <p className="share-options__secret" data-testid="share-webhook-secret">
              <span className="field__label">{t('shareEdit.webhookSecret')}</span>
              <code dir="ltr">{secret}</code>
            </p>
          )}
        </>
      )}
    </div>
  );
}
