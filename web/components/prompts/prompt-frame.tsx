import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { closePrompt } from '../../state/prompts.state';
import { Icon } from '../ui/icon';

export interface PromptFrameProps {
  title: string;
  testId: string;
  children: ReactNode;
  /** The buttons row. */
  actions: ReactNode;
  /** Called when the form is submitted (a submit button, or Enter in a field). */
  onSubmit?: () => void;
  /** Enter anywhere in the dialog submits (delete, copy, move, replace), not only inside a field. */
  enterSubmits?: boolean;
  wide?: boolean;
  /** 'large': a panel nearly the window's width (the Versions panel's side-by-side diff); full width on phones. */
  size?: 'large';
}

/**
 * The dialog box every prompt uses: a titled form with a close button. The host around it supplies the
 * overlay, Esc and outside-click closing.
 */
export function PromptFrame({ title, testId, children, actions, onSubmit, enterSubmits, wide, size }: PromptFrameProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const ref = useRef<HTMLFormElement>(null);
  const submitRef = useRef(onSubmit);
  submitRef.current = onSubmit;
  const bodyRef = useRef<HTMLDivElement>(null);
  // A body taller than the dialog scrolls: it then takes a Tab stop, so the keyboard can scroll it too.
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    const measure = () => setScrolls(body.scrollHeight > body.clientHeight + 1);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(body);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const form = ref.current;
    const first = form?.querySelector<HTMLElement>('[data-autofocus]') ?? form?.querySelector<HTMLElement>('input, select, button[type=submit]');
    first?.focus();
    if (first instanceof HTMLInputElement && first.type === 'text') first.select();
  }, []);

  useEffect(() => {
    if (!enterSubmits) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || e.defaultPrevented) return;
      const el = e.target instanceof HTMLElement ? e.target : null;
      // Fields submit the form themselves, and a focused dialog button (Cancel, close) does what it says.
      if (el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || el.closest('.prompt__actions, .prompt__close'))) return;
      e.preventDefault();
      submitRef.current?.();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enterSubmits]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit?.();
  };

  return (
    <form
      ref={ref}
      className={size === 'large' ? 'prompt prompt--large' : wide ? 'prompt prompt--wide' : 'prompt'}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid={`prompt-${testId}`}
      onSubmit={submit}
    >
      <header className="prompt__header">
        <h2 className="prompt__title" id={titleId}>
          {title}
        </h2>
        <button type="button" className="prompt__close" aria-label={t('prompts.close')} title={t('prompts.close')} onClick={closePrompt}>
          <Icon name="close" />
        </button>
      </header>
      <div ref={bodyRef} className="prompt__body" tabIndex={scrolls ? 0 : undefined} role={scrolls ? 'region' : undefined} aria-labelledby={scrolls ? titleId : undefined}>
        {children}
      </div>
      <footer className="prompt__actions">{actions}</footer>
    </form>
  );
}

/** A dialog button: secondary by default, primary (or danger) for the main action. */
export function PromptButton({ kind = 'secondary', label, onClick, submit, testId, disabled }: { kind?: 'primary' | 'secondary' | 'danger'; label: string; onClick?: () => void; submit?: boolean; testId?: string; disabled?: boolean }) {
  return (
    <button type={submit ? 'submit' : 'button'} className={`btn btn--${kind}`} onClick={onClick} data-testid={testId} disabled={disabled}>
      {label}
    </button>
  );
}

/** The usual Cancel button; `focus` gives it the focus (a destructive prompt whose Enter must not destroy). */
export function CancelButton({ focus }: { focus?: boolean } = {}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <button ref={ref} type="button" className="btn btn--secondary" onClick={closePrompt} data-testid="prompt-cancel" data-autofocus={focus || undefined}>
      {t('buttons.cancel')}
    </button>
  );
}
