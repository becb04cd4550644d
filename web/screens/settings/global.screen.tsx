import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HookName, Settings } from '../../../server/contract/settings';
import type { User } from '../../../server/contract/user';
import { CommandRunner, splitLines } from '../../components/settings/command-runner';
import { GlobalForm, splitShell } from '../../components/settings/global-form';
import { SignInCard } from '../../components/settings/sign-in/sign-in-card';
import { SettingsLayout } from '../../components/settings/settings-layout';
import { UserFields } from '../../components/settings/user-fields';
import { ErrorState } from '../../components/ui/error-state';
import { pageConfig } from '../../api/page-config';
import { globalSettings, loadSettings, saveSettings } from '../../state/settings.state';

interface Draft {
  settings: Settings;
  shell: string;
  hooks: Record<HookName, string>;
  /** The defaults as a user record, so that the user form's fields can edit them. */
  defaults: User;
}

/** A plain deep copy (valtio may hold the original; structuredClone refuses proxies). */
const copy = <T,>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function toDraft(s: Settings): Draft {
  const hooks = Object.fromEntries(Object.entries(s.commands).map(([k, v]) => [k, v.join('\n')])) as Record<HookName, string>;
  return { settings: copy(s), shell: s.shell.join(' '), hooks, defaults: { ...copy(s.defaults), id: 0, username: '', password: '', rules: [] } };
}

function fromDraft(d: Draft): Settings {
  const { id: _i, username: _u, password: _p, rules: _r, ...defaults } = d.defaults;
  const commands = Object.fromEntries(Object.entries(d.hooks).map(([k, v]) => [k, splitLines(v)])) as Record<HookName, string[]>;
  return { ...d.settings, shell: splitShell(d.shell), commands, defaults };
}

/** /settings/global (admin): global settings, default user settings and the command runner. */
export function GlobalScreen() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    void loadSettings().then((s) => (s ? setDraft(toDraft(s)) : setError(globalSettings.error?.status ?? 500)));
  }, []);

  const save = async () => {
    if (!draft) return;
    setBusy(true);
    const fresh = await saveSettings(fromDraft(draft));
    if (fresh) {
      setDraft(toDraft(fresh));
      setGeneration((g) => g + 1);
    }
    setBusy(false);
  };

  let body;
  if (error !== null) body = <ErrorState status={error} />;
  else if (!draft) body = <p className="status-text" role="status">{t('settings.loading')}</p>;
  else
    body = (
      <div className="settings-stack">
        <GlobalForm
          draft={draft.settings} onChange={(settings) => setDraft({ ...draft, settings })} shell={draft.shell}
          onShell={(shell) => setDraft({ ...draft, shell })} busy={busy} onSave={() => void save()}
        />
        <SignInCard key={generation} draft={draft.settings} onChange={(settings) => setDraft({ ...draft, settings })} busy={busy} onSave={() => void save()} />
        <form className="settings-card" onSubmit={(e) => { e.preventDefault(); void save(); }} data-testid="defaults-form">
          <div className="settings-card__head">
            <h2 className="settings-card__title">{t('settings.defaults.title')}</h2>
          </div>
          <p className="settings-card__intro settings-help">{t('settings.defaults.help')}</p>
          <UserFields key={generation} user={draft.defaults} mode="defaults" onChange={(defaults) => setDraft({ ...draft, defaults })} />
          <div className="settings-card__actions">
            <button type="submit" className="btn btn--primary" disabled={busy} data-testid="defaults-save">{t('settings.save')}</button>
          </div>
        </form>
        {pageConfig.EnableExec && <CommandRunner texts={draft.hooks} onChange={(hooks) => setDraft({ ...draft, hooks })} busy={busy} onSave={() => void save()} />}
      </div>
    );

  return <SettingsLayout title={t('routes.global')}>{body}</SettingsLayout>;
}
