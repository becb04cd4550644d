import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { TrashItem } from '../../../server/contract/trash';
import { AppLayout } from '../../components/layout/app-layout';
import { usePageTitle } from '../../components/layout/use-page-title';
import { ConfirmDialog } from '../../components/settings/confirm-dialog';
import { TrashTable } from '../../components/trash/trash-table';
import { ErrorState } from '../../components/ui/error-state';
import { auth } from '../../state/auth.state';
import { deleteForever, emptyAll, loadTrash, trashState } from '../../state/trash.state';
import '../../styles/settings.css';
import '../../styles/trash.css';

/** /trash: what the user deleted (admins: everyone's), with restore, delete forever and empty. */
export function TrashScreen() {
  const { t } = useTranslation();
  const { items, settings, error } = useSnapshot(trashState);
  const { user } = useSnapshot(auth);
  const [confirm, setConfirm] = useState<{ kind: 'one'; item: TrashItem } | { kind: 'all' } | null>(null);
  usePageTitle(t('trash.title'));

  useEffect(() => {
    void loadTrash();
  }, []);

  let body;
  if (error) body = <ErrorState status={error} />;
  else if (!items) body = <p className="status-text" role="status">{t('trash.loading')}</p>;
  else if (!items.length) body = <p className="trash__empty" data-testid="trash-empty">{t('trash.empty')}</p>;
  else body = <TrashTable items={items as TrashItem[]} showOwner={!!user?.perm.admin} onDelete={(item) => setConfirm({ kind: 'one', item })} />;

  const actions = items?.length ? (
    <button type="button" className="btn btn--danger btn--small" onClick={() => setConfirm({ kind: 'all' })} data-testid="trash-empty-all">
      {t('trash.emptyTrash')}
    </button>
  ) : undefined;

  return (
    <AppLayout title={t('trash.title')} actions={actions}>
      <div className="trash" data-testid="trash-screen">
        {settings && (
          <p className="trash__note" data-testid="trash-note">
            {!settings.enabled ? t('trash.off') : settings.retentionDays > 0 ? t('trash.retention', { count: settings.retentionDays }) : t('trash.kept')}
          </p>
        )}
        {body}
      </div>
      {confirm && (
        <ConfirmDialog
          title={confirm.kind === 'all' ? t('trash.emptyTitle') : t('trash.deleteForeverTitle')}
          message={confirm.kind === 'all' ? t('trash.emptyMessage') : t('trash.deleteForeverMessage', { name: confirm.item.name })}
          confirmLabel={confirm.kind === 'all' ? t('trash.emptyTrash') : t('trash.deleteForever')}
          danger
          onCancel={() => setConfirm(null)}
          onConfirm={async () => {
            const c = confirm;
            setConfirm(null);
            await (c.kind === 'all' ? emptyAll() : deleteForever(c.item));
          }}
        />
      )}
    </AppLayout>
  );
}
