import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { auth } from '../../state/auth.state';
import { showPrompt } from '../../state/prompts.state';
import { Icon } from '../ui/icon';
import '../../styles/states.css';

/**
 * An empty folder invites an upload: a button (when the user may create) and the drop-zone wording (the listing
 * around it already takes dropped files). Without that permission it says only that the folder is empty.
 */
export function EmptyFolder({ path }: { path: string }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(auth);
  const canUpload = !!user?.perm.create;
  const base = path.endsWith('/') ? path : `${path}/`;
  return (
    <div className="empty-folder" data-testid="empty">
      <Icon name={canUpload ? 'upload' : 'folder'} className="empty-folder__icon" />
      <p className="empty-folder__title">{t('files.lonely')}</p>
      {canUpload && (
        <>
          <p className="empty-folder__hint">{t('states.dropHere')}</p>
          <button type="button" className="btn btn--primary" onClick={() => showPrompt('upload', { base })} data-testid="empty-upload">
            <Icon name="upload" />
            {t('states.uploadFiles')}
          </button>
        </>
      )}
    </div>
  );
}
