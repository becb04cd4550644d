import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A one-line setting; `mono` for addresses, names and filters that are typed exactly (left to right in any language). */
export function TextField({ name, label, value, onChange, help, mono }: {
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  help?: string;
  mono?: boolean;
}) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <input className="input" name={name} value={value} dir={mono ? 'ltr' : undefined} spellCheck={!mono} autoCapitalize="off" onChange={(e) => onChange(e.target.value)} />
      {help && <span className="settings-help">{help}</span>}
    </label>
  );
}

/** A list setting typed as one line, comma separated (groups, scopes); spaces around items are dropped. */
export function ListField({ name, label, value, onChange, help }: {
  name: string;
  label: string;
  value: readonly string[];
  onChange: (v: string[]) => void;
  help?: string;
}) {
  // The text is kept as typed (a trailing comma while typing), the list derived from it.
  const [text, setText] = useState(value.join(', '));
  return (
    <TextField
      name={name} label={label} mono value={text} help={help}
      onChange={(v) => {
        setText(v);
        onChange(v.split(',').map((s) => s.trim()).filter(Boolean));
      }}
    />
  );
}

/**
 * A write-only secret (the OIDC client secret, the LDAP bind password): never shown, "set" when one is stored;
 * left empty the stored one is kept (the server ignores an empty value).
 */
export function SecretField({ name, label, isSet, value, onChange }: {
  name: string;
  label: string;
  isSet: boolean;
  value: string;
  onChange: (v: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span className="field__label">
        {label}
        {isSet && <span className="settings-badge account-current" data-testid={`${name}-set`}>{t('signIn.secretSet')}</span>}
      </span>
      <input
        className="input" name={name} type="password" autoComplete="new-password" dir="ltr" value={value}
        placeholder={isSet ? t('signIn.secretKeep') : ''} onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
