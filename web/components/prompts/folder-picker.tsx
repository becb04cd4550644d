import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { foldersIn } from '../../actions/files';
import { showError } from '../../state/notices.state';
import { Icon } from '../ui/icon';

const parentOf = (path: string) => path.replace(/\/$/, '').replace(/[^/]*$/, '') || '/';

/**
 * Browses folders to pick a destination: a click picks a folder, a double click (or its arrow) opens it, and
 * the parent entry goes up. `onChange` gets the destination: the picked folder, else the one being browsed.
 */
export function FolderPicker({ start, onChange }: { start: string; onChange(dest: string): void }) {
  const { t } = useTranslation();
  const [path, setPath] = useState(start);
  const [folders, setFolders] = useState<{ name: string; path: string }[] | null>(null);
  const [picked, setPicked] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setFolders(null);
    foldersIn(path, controller.signal).then(setFolders, (e: unknown) => {
      if (!controller.signal.aborted) {
        showError(e);
        setFolders([]);
      }
    });
    return () => controller.abort();
  }, [path]);

  useEffect(() => onChange(picked ?? path), [picked, path, onChange]);

  const open = (to: string) => {
    setPicked(null);
    setPath(to.endsWith('/') ? to : `${to}/`);
  };

  return (
    <div className="picker">
      <p className="picker__where">
        {t('prompts.currentlyNavigating')} <code data-testid="picker-path">{path}</code>
      </p>
      {/* A list of buttons (pick, open), not a listbox: a listbox may hold only options. */}
      <ul className="picker__list" aria-label={t('prompts.folderList')} data-testid="folder-picker">
        {path !== '/' && (
          <li>
            <button type="button" className="picker__item" onClick={() => open(parentOf(path))} onDoubleClick={() => open(parentOf(path))} data-testid="picker-up" aria-label={t('buttons.up')}>
              <Icon name="arrowUp" />
              <span>..</span>
            </button>
          </li>
        )}
        {folders === null && <li className="picker__status">{t('files.loading')}</li>}
        {folders?.length === 0 && <li className="picker__status">{t('prompts.noFolders')}</li>}
        {folders?.map((f) => {
          const dest = `${f.path}/`;
          const selected = picked === dest;
          return (
            <li key={f.name} className="picker__row">
              <button
                type="button"
                aria-pressed={selected}
                className={selected ? 'picker__item is-selected' : 'picker__item'}
                onClick={() => setPicked(selected ? null : dest)}
                onDoubleClick={() => open(dest)}
                data-testid="picker-folder"
                data-name={f.name}
              >
                <Icon name="folder" className="is-dir" />
                <span>{f.name}</span>
              </button>
              <button type="button" className="picker__open" onClick={() => open(dest)} aria-label={f.name} title={f.name} data-testid="picker-open" data-name={f.name}>
                <Icon name="chevronRight" />
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
