import { useTranslation } from 'react-i18next';
import '../../styles/states.css';

/**
 * Grey placeholder rows in the shape of what is loading (the listing, the previewer), instead of "Loading...".
 * Screen readers get one status line; the shapes are hidden from them.
 */
export function Skeleton({ kind, testId }: { kind: 'listing' | 'preview'; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className={`skeleton skeleton--${kind}`} role="status" data-testid={testId ?? `skeleton-${kind}`}>
      <span className="sr-only">{t('states.loading')}</span>
      {kind === 'listing' ? (
        Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="skeleton__row" aria-hidden="true">
            <span className="skeleton__block skeleton__icon" />
            <span className="skeleton__block skeleton__line" style={{ inlineSize: `${40 + ((i * 37) % 45)}%` }} />
          </div>
        ))
      ) : (
        <div className="skeleton__block skeleton__media" aria-hidden="true" />
      )}
    </div>
  );
}
