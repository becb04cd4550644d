import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** Asks whether to drop unsaved changes before leaving. Esc or a click outside keeps editing. */
export function DiscardDialog({ name, onDiscard, onKeep }: { name: string; onDiscard(): void; onKeep(): void }) {
  const { t } = useTranslation();
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    keep.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      onKeep();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onKeep]);
  return (
    <div className="editor-dialog__backdrop" onMouseDown={(e) => e.target === e.currentTarget && onKeep()}>
      <div className="editor-dialog" role="dialog" aria-modal="true" aria-labelledby="editor-discard-title" aria-describedby="editor-discard-text" data-testid="editor-discard-dialog">
        <h2 id="editor-discard-title" className="editor-dialog__title">
          {t('editor.discardTitle')}
        </h2>
        <p id="editor-discard-text" className="editor-dialog__text">
          {t('editor.discardText', { name })}
        </p>
        <div className="editor-dialog__actions">
          <button ref={keep} type="button" className="btn btn--secondary" data-testid="editor-keep" onClick={onKeep}>
            {t('editor.keepEditing')}
          </button>
          <button type="button" className="btn editor-dialog__discard" data-testid="editor-discard" onClick={onDiscard}>
            {t('editor.discard')}
          </button>
        </div>
      </div>
    </div>
  );
}
