import type { ReactNode } from 'react';

interface Props {
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}

/** A labelled checkbox row used by every settings form. */
export function Checkbox({ name, checked, onChange, label, hint, disabled }: Props) {
  return (
    <label className={disabled ? 'settings-check is-disabled' : 'settings-check'}>
      <input type="checkbox" name={name} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span className="settings-check__text">
        <span>{label}</span>
        {hint && <span className="settings-check__hint">{hint}</span>}
      </span>
    </label>
  );
}
