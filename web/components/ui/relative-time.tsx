import { useTranslation } from 'react-i18next';
import { formatExact, formatRelative } from './format';

/** A moment as "3 minutes ago", with the exact date on hover and in `dateTime`; `empty` when there is none (null or 0). */
export function RelativeTime({ at, empty = '' }: { at: number | Date | null; empty?: string }) {
  const { i18n } = useTranslation();
  if (at === null || at === 0) return <>{empty}</>;
  const d = at instanceof Date ? at : new Date(at);
  return <time dateTime={d.toISOString()} title={formatExact(d, i18n.language)}>{formatRelative(d, i18n.language)}</time>;
}
