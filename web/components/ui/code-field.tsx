import { useTranslation } from 'react-i18next';

/**
 * A one-time code input: six digits from an authenticator app (the phone's keypad, and the browser may fill it
 * from an SMS-style prompt), or a recovery code when `recovery` is set (letters and dashes, any keyboard).
 */
export function CodeField({ value, onChange, recovery = false, autoFocus = false, label }: {
  value: string;
  onChange: (v: string) => void;
  recovery?: boolean;
  autoFocus?: boolean;
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span className="field__label">{label ?? t(recovery ? 'twoFactor.recoveryCode' : 'twoFactor.code')}</span>
      {recovery ? (
        <input
          className="input code-field code-field--recovery" name="recovery-code" type="text" autoComplete="off" autoCapitalize="off"
          spellCheck={false} dir="ltr" autoFocus={autoFocus} value={value} onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          className="input code-field" name="one-time-code" type="text" inputMode="numeric" autoComplete="one-time-code"
          pattern="[0-9 ]*" maxLength={7} dir="ltr" autoFocus={autoFocus} value={value}
          onChange={(e) => onChange(e.target.value.replace(/[^0-9 ]/g, ''))}
        />
      )}
    </label>
  );
}
