import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VersionInfo } from '../../../server/contract/versions';
import type { WebResource } from '../../api/resources';
import { fetchRawText } from '../../api/preview';
import { fetchVersionText, versionUrl } from '../../api/versions';
import { isApiError } from '../../api/client';
import { VersionDiff } from './version-diff';

/** Past this size a text is neither shown nor compared in the browser (it would stall the page). */
export const MAX_TEXT_BYTES = 1024 * 1024;

export type ViewMode = 'preview' | 'diff';

export const isTextItem = (item: WebResource) => item.type === 'text' || item.type === 'textImmutable';

/** Loads the texts the view needs: the version's, and for a diff the current content too. */
function useTexts(item: WebResource, version: VersionInfo, mode: ViewMode) {
  const [state, setState] = useState<{ old?: string; now?: string; error?: number }>({});
  useEffect(() => {
    const controller = new AbortController();
    setState({});
    const current = mode === 'diff' ? fetchRawText(item.path, controller.signal) : Promise.resolve(undefined);
    Promise.all([fetchVersionText(item.path, version.id, controller.signal), current]).then(
      ([old, now]) => setState({ old, now }),
      (e: unknown) => {
        if (!controller.signal.aborted) setState({ error: isApiError(e) ? e.status : 0 });
      },
    );
    return () => controller.abort();
  }, [item.path, version.id, mode]);
  return state;
}

function TextView({ item, version, mode }: { item: WebResource; version: VersionInfo; mode: ViewMode }) {
  const { t } = useTranslation();
  const { old, now, error } = useTexts(item, version, mode);
  if (error !== undefined) return <p className="versions__note" role="alert">{t('versions.loadFailed', { status: error || '000' })}</p>;
  if (old === undefined || (mode === 'diff' && now === undefined)) return <p className="versions__note" role="status">{t('settings.loading')}</p>;
  if (mode === 'diff') return <VersionDiff oldText={old} newText={now!} />;
  return (
    <pre className="versions__text" data-testid="version-text" tabIndex={0} aria-label={t('versions.previewLabel')}>
      {old}
    </pre>
  );
}

/** The selected version below the list: an image, a text, or the text's diff against the current content. */
export function VersionView({ item, version, mode }: { item: WebResource; version: VersionInfo; mode: ViewMode }) {
  const { t } = useTranslation();
  if (item.type === 'image')
    return (
      <div className="versions__image">
        <img src={versionUrl(item.path, version.id, true)} alt={t('versions.imageAlt', { name: item.name })} data-testid="version-image" />
      </div>
    );
  if (!isTextItem(item)) return <p className="versions__note">{t('versions.noPreview')}</p>;
  if (version.size > MAX_TEXT_BYTES || (mode === 'diff' && item.size > MAX_TEXT_BYTES))
    return <p className="versions__note" data-testid="version-too-large">{t(mode === 'diff' ? 'versions.tooLargeToCompare' : 'versions.tooLargeToShow')}</p>;
  return <TextView item={item} version={version} mode={mode} />;
}
