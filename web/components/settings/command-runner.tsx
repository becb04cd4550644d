import { useTranslation } from 'react-i18next';
import { HOOK_NAMES, type HookName } from '../../../server/contract/settings';
import { pageConfig } from '../../api/page-config';
import { ExtraIcon } from '../share-page/icons';

/** Hook commands are typed one per line; empty lines are dropped. */
export const splitLines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/**
 * Says how commands and hooks run on this server (decided at start, read-only): sandboxed by bubblewrap, or
 * unconfined because the admin set execUnsafeNoSandbox, or off because no sandbox was available.
 */
export function ExecSandboxNotice() {
  const { t } = useTranslation();
  const mode = pageConfig.ExecSandbox;
  if (mode === 'bubblewrap') return <p className="settings-help" data-testid="exec-sandbox" data-mode={mode}>{t('settings.runner.sandbox.bubblewrap')}</p>;
  return (
    <div className="settings-warning" role="note" data-testid="exec-sandbox" data-mode={mode}>
      <ExtraIcon name="warning" />
      <p>{t(mode === 'none-unsafe' ? 'settings.runner.sandbox.noneUnsafe' : 'settings.runner.sandbox.off')}</p>
    </div>
  );
}

interface Props {
  texts: Readonly<Record<HookName, string>>;
  onChange: (texts: Record<HookName, string>) => void;
  busy: boolean;
  onSave: () => void;
}

/** The command runner: one textarea per event, run before or after it (exec-enabled servers only). */
export function CommandRunner({ texts, onChange, busy, onSave }: Props) {
  const { t } = useTranslation();
  return (
    <form className="settings-card" onSubmit={(e) => { e.preventDefault(); onSave(); }} data-testid="command-runner">
      <div className="settings-card__head">
        <h2 className="settings-card__title">{t('settings.runner.title')}</h2>
      </div>
      <div className="settings-card__body">
        <ExecSandboxNotice />
        <p className="settings-help">{t('settings.runner.help')}</p>
        <div className="settings-runner__grid">
          {HOOK_NAMES.map((hook) => (
            <label key={hook} className="field">
              <span className="field__label settings-table__mono">{hook}</span>
              <textarea
                className="input settings-textarea" name={hook} rows={3} spellCheck={false} value={texts[hook]}
                onChange={(e) => onChange({ ...texts, [hook]: e.target.value })}
              />
            </label>
          ))}
        </div>
      </div>
      <div className="settings-card__actions">
        <button type="submit" className="btn btn--primary" disabled={busy} data-testid="runner-save">{t('settings.save')}</button>
      </div>
    </form>
  );
}
