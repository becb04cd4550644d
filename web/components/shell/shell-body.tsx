import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { closeShell, runShellLine, shellState, stopShellCommand } from '../../state/shell.state';
import { ViewerIcon } from '../preview/viewer-icons';
import { ShellOutput } from './shell-output';

/** The shell panel's content: loaded the first time the shell opens. */
export function ShellBody() {
  const { t } = useTranslation();
  const { running, history } = useSnapshot(shellState);
  const [value, setValue] = useState('');
  // Position in the history while browsing with up/down; history.length = the line being typed.
  const [at, setAt] = useState(history.length);
  const draft = useRef('');
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!running) input.current?.focus();
  }, [running]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      runShellLine(value);
      setValue('');
      setAt(shellState.history.length);
      draft.current = '';
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      const next = Math.min(Math.max(at + (e.key === 'ArrowUp' ? -1 : 1), 0), history.length);
      if (next === at) return;
      if (at === history.length) draft.current = value;
      setAt(next);
      setValue(next === history.length ? draft.current : (history[next] ?? ''));
    } else if (e.key === 'Escape') {
      e.preventDefault();
      closeShell();
    }
  };

  return (
    <section className="shell" aria-label={t('shell.label')} data-testid="shell-panel" data-running={running}>
      <header className="shell__bar">
        <ViewerIcon name="terminal" />
        <h2 className="shell__title">{t('shell.title')}</h2>
        {running && (
          <button type="button" className="shell__stop" data-testid="shell-stop" onClick={stopShellCommand}>
            <ViewerIcon name="stop" />
            {t('shell.stop')}
          </button>
        )}
        <button type="button" className="viewer-action" aria-label={t('shell.close')} title={t('shell.close')} data-testid="shell-close" onClick={closeShell}>
          <ViewerIcon name="close" />
        </button>
      </header>
      <ShellOutput />
      <div className="shell__prompt">
        <span className="shell__sigil" aria-hidden="true">
          $
        </span>
        <input
          ref={input}
          className="shell__input"
          value={value}
          disabled={running}
          placeholder={running ? t('shell.running') : t('shell.placeholder')}
          aria-label={t('shell.input')}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          data-testid="shell-input"
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={onKeyDown}
        />
      </div>
    </section>
  );
}
