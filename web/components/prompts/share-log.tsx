import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Share, ShareAccess } from '../../../server/contract/share';
import { fetchShareLog } from '../../api/shares';
import { showError } from '../../state/notices.state';
import { formatSize } from '../ui/format';
import { RelativeTime } from '../ui/relative-time';
import { PromptButton, PromptFrame } from './prompt-frame';

/** Lines per page; the server answers at most 500. */
export const LOG_PAGE = 50;

/** A link's access log (time, what, address, client), newest first, paged back by the oldest line's id. */
export function ShareLog({ share, onBack }: { share: Share; onBack(): void }) {
  const { t, i18n } = useTranslation();
  const [lines, setLines] = useState<ShareAccess[] | null>(null);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = async (before?: number) => {
    setBusy(true);
    try {
      const page = await fetchShareLog(share.hash, { limit: LOG_PAGE, before });
      setLines((old) => [...(before ? (old ?? []) : []), ...page]);
      setMore(page.length === LOG_PAGE);
    } catch (e) {
      showError(e);
      setLines((old) => old ?? []);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    void load();
  }, [share.hash]);

  return (
    <PromptFrame
      title={t('shareEdit.log')}
      testId="share-log"
      onSubmit={onBack}
      wide
      actions={
        <>
          {more && <PromptButton label={t('shareEdit.logOlder')} onClick={() => void load(lines?.at(-1)?.id)} testId="share-log-older" disabled={busy} />}
          <PromptButton kind="primary" submit label={t('shareEdit.back')} testId="prompt-confirm" />
        </>
      }
    >
      <p className="prompt__subject" dir="auto">{share.path}</p>
      {lines === null ? (
        <p className="status-text">{t('files.loading')}</p>
      ) : lines.length === 0 ? (
        <p className="status-text" data-testid="share-log-empty">{t('shareEdit.logEmpty')}</p>
      ) : (
        <div className="share-log__wrap">
          <table className="share-log" data-testid="share-log-table">
            <thead>
              <tr>
                <th scope="col">{t('shareEdit.logTime')}</th>
                <th scope="col">{t('shareEdit.logWhat')}</th>
                <th scope="col">{t('shareEdit.logAddress')}</th>
                <th scope="col">{t('shareEdit.logAgent')}</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.id} data-testid="share-log-line" data-kind={l.kind}>
                  <td>
                    <RelativeTime at={l.time} />
                  </td>
                  <td>
                    {t(`shareEdit.kinds.${l.kind}`)}
                    {l.path !== '/' && <span className="share-log__path"> {l.path}</span>}
                    {l.bytes ? <span className="share-log__path"> ({formatSize(l.bytes, i18n.language)})</span> : null}
                  </td>
                  <td dir="ltr">{l.address}</td>
                  <td>{l.agent}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </PromptFrame>
  );
}
