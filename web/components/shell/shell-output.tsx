import { useEffect, useRef } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { shellState, type ShellLine } from '../../state/shell.state';

function lineText(line: ShellLine, t: TFunction): string {
  if (line.key === 'exitCode') return t('shell.exitCode', { code: line.code });
  if (line.key === 'connectionFailed') return t('shell.connectionFailed');
  return line.text;
}

/** The output so far; it follows new lines unless the user has scrolled up to read. */
export function ShellOutput() {
  const { t } = useTranslation();
  const { version, lines } = useSnapshot(shellState);
  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  useEffect(() => {
    const el = box.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [version]);

  return (
    <div
      ref={box}
      className="shell__output"
      role="log"
      aria-live="polite"
      data-testid="shell-output"
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      {lines.length === 0 && <p className="shell__intro">{t('shell.intro')}</p>}
      {lines.map((line) => (
        <div key={line.id} className={`shell__line is-${line.kind}`} data-testid={`shell-line-${line.kind}`}>
          {lineText(line, t)}
        </div>
      ))}
    </div>
  );
}
