import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { WebResource } from '../../api/resources';
import { checksumOf } from '../../actions/files';
import { auth } from '../../state/auth.state';
import { showError } from '../../state/notices.state';
import { closePrompt, showPrompt, type PromptData } from '../../state/prompts.state';
import { missingThumbTool } from '../ui/file-kind';
import { formatCount, formatExact, formatRelative, formatSize } from '../ui/format';
import { PromptButton, PromptFrame } from './prompt-frame';

const ALGOS = ['md5', 'sha1', 'sha256', 'sha512'] as const;

/** One checksum row: computed only when asked for (it reads the whole file on the server). */
function Checksum({ item, algo }: { item: WebResource; algo: (typeof ALGOS)[number] }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const compute = async () => {
    setBusy(true);
    try {
      setValue(await checksumOf(item.path, algo));
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="info__row">
      <dt>{t('prompts.checksum', { algo: algo.toUpperCase() })}</dt>
      <dd>
        {value !== null ? (
          <code className="info__hash" data-testid={`checksum-${algo}`}>
            {value}
          </code>
        ) : (
          <button type="button" className="link-button" onClick={() => void compute()} disabled={busy} data-testid={`compute-${algo}`}>
            {busy ? t('prompts.computing') : t('buttons.compute')}
          </button>
        )}
      </dd>
    </div>
  );
}

/** Details of one item (with checksums for a file) or a summary of a selection. */
export function InfoPrompt({ items }: PromptData['info']) {
  const { t, i18n } = useTranslation();
  const { user } = useSnapshot(auth);
  const lng = i18n.language;
  const only = items.length === 1 ? items[0] : undefined;
  // Folders count with their size from the name index (folderSize); one unknown folder size makes the total
  // unknown ("—", as in the listing) rather than too small.
  const total = items.some((i) => i.isDir && i.folderSize === undefined) ? undefined : items.reduce((sum, i) => sum + (i.isDir ? i.folderSize! : i.size), 0);
  // A file's kept versions open in their own panel (reading them needs download, as the file itself).
  const versions = only && !only.isDir && user?.perm.download && (
    <PromptButton label={t('buttons.versions')} testId="info-versions" onClick={() => showPrompt('versions', { item: only })} />
  );
  const close = (
    <>
      {versions}
      <PromptButton kind="primary" submit label={t('buttons.ok')} testId="prompt-confirm" />
    </>
  );
  return (
    <PromptFrame title={t('prompts.infoTitle')} testId="info" onSubmit={closePrompt} actions={close} wide>
      <dl className="info">
        {only ? (
          <>
            <div className="info__row">
              <dt>{t('prompts.displayName')}</dt>
              <dd data-testid="info-name">{only.name || '/'}</dd>
            </div>
            <div className="info__row">
              <dt>{t('prompts.path')}</dt>
              <dd>{only.path}</dd>
            </div>
            {(!only.isDir || only.folderSize !== undefined) && (
              <div className="info__row">
                <dt>{t('prompts.size')}</dt>
                <dd data-testid="info-size">
                  {formatSize(only.isDir ? only.folderSize! : only.size, lng)} <span className="muted">({formatCount(only.isDir ? only.folderSize! : only.size, lng)})</span>
                </dd>
              </div>
            )}
            <div className="info__row">
              <dt>{t('prompts.lastModified')}</dt>
              <dd title={formatExact(only.modified, lng)}>{user?.dateFormat ? formatExact(only.modified, lng) : formatRelative(only.modified, lng)}</dd>
            </div>
            <div className="info__row">
              <dt>{t('prompts.type')}</dt>
              <dd>{only.isDir ? t('files.folder') : only.type || only.extension || t('files.file')}</dd>
            </div>
            {!only.isDir && missingThumbTool(only.type, only.name) && (
              <div className="info__row">
                <dt>{t('viewers.thumbnail')}</dt>
                <dd data-testid="info-thumb-tool">{t(missingThumbTool(only.type, only.name)!)}</dd>
              </div>
            )}
            {only.isDir && only.numDirs !== undefined && (
              <>
                <div className="info__row">
                  <dt>{t('prompts.numberDirs')}</dt>
                  <dd data-testid="info-dirs">{only.numDirs}</dd>
                </div>
                <div className="info__row">
                  <dt>{t('prompts.numberFiles')}</dt>
                  <dd data-testid="info-files">{only.numFiles}</dd>
                </div>
              </>
            )}
            {!only.isDir && ALGOS.map((algo) => <Checksum key={algo} item={only} algo={algo} />)}
          </>
        ) : (
          <>
            <div className="info__row">
              <dt>{t('prompts.selection')}</dt>
              <dd data-testid="info-count">{t('prompts.filesSelected', { count: items.length })}</dd>
            </div>
            <div className="info__row">
              <dt>{t('prompts.totalSize')}</dt>
              <dd data-testid="info-total">{total === undefined ? '—' : formatSize(total, lng)}</dd>
            </div>
          </>
        )}
      </dl>
    </PromptFrame>
  );
}
