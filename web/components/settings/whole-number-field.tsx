import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../ui/format';

interface Props {
  name: string;
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (n: number) => void;
  help?: string;
}

/** The typed text as a whole number within [min, max], or null (what the server's `int` check accepts). */
export function parseWhole(text: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

/**
 * A number input checked as the server checks it: the draft only ever receives valid values; while the text is not
 * one, the input is marked invalid with a message (its custom validity), so the browser refuses to submit the form.
 */
export function WholeNumberField({ name, label, value, min, max, onChange, help }: Props) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(String(value));
  const id = useId();
  // A value set from outside (the stored settings after a save) replaces the text.
  useEffect(() => setText((cur) => (parseWhole(cur, min, max) === value ? cur : String(value))), [value, min, max]);
  const valid = parseWhole(text, min, max) !== null;
  const error = valid ? '' : t('settings.wholeNumberRange', { min: formatCount(min, i18n.language), max: formatCount(max, i18n.language) });

  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>{label}</label>
      <input
        id={id} className={valid ? 'input settings-input--short' : 'input settings-input--short is-invalid'} name={name} type="number" inputMode="numeric" min={min} max={max} step={1}
        value={text} aria-invalid={!valid} aria-describedby={`${id}-help`}
        ref={(el) => el?.setCustomValidity(error)}
        onChange={(e) => {
          setText(e.target.value);
          const n = parseWhole(e.target.value, min, max);
          if (n !== null) onChange(n);
        }}
      />
      {valid ? (
        <span id={`${id}-help`} className="settings-help">{help}</span>
      ) : (
        <p id={`${id}-help`} className="settings-field-error" role="alert" data-testid={`${name}-error`}>{error}</p>
      )}
    </div>
  );
}
