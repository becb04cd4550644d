import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { enqueueShareUploads } from '../../state/share-upload.state';
import { Icon } from '../ui/icon';
import { filesFromDrop, filesFromInput } from './drop-files';

/** Where a visitor drops files into a file request (into `folder`): drag and drop, a file chooser, a folder chooser. */
export function DropZone({ folder, disabled }: { folder: string; disabled: boolean }) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const filesRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);

  const onDrag = (e: DragEvent) => {
    if (!Array.from(e.dataTransfer.types).includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    setOver(e.type !== 'dragleave');
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (disabled) return;
    void filesFromDrop(e.dataTransfer).then((files) => files.length && enqueueShareUploads(folder, files));
  };
  const onChosen = (input: HTMLInputElement | null) => {
    if (!input) return;
    const files = filesFromInput(input.files);
    input.value = '';
    if (files.length) enqueueShareUploads(folder, files);
  };

  return (
    <section
      className={`share-card share-drop${over ? ' is-over' : ''}${disabled ? ' is-disabled' : ''}`}
      data-testid="share-drop"
      aria-labelledby="share-drop-title"
      onDragEnter={onDrag}
      onDragOver={onDrag}
      onDragLeave={onDrag}
      onDrop={onDrop}
    >
      <div className="share-drop__badge" aria-hidden="true">
        <Icon name="upload" />
      </div>
      <h2 id="share-drop-title" className="share-card__title">{t('sharePage.upload.title')}</h2>
      <p className="share-card__text">{t(disabled ? 'sharePage.upload.full' : 'sharePage.upload.hint')}</p>
      <div className="share-drop__actions">
        <button type="button" className="btn btn--primary" disabled={disabled} onClick={() => filesRef.current?.click()} data-testid="share-choose-files">
          {t('sharePage.upload.chooseFiles')}
        </button>
        <button type="button" className="btn btn--secondary" disabled={disabled} onClick={() => folderRef.current?.click()} data-testid="share-choose-folder">
          {t('sharePage.upload.chooseFolder')}
        </button>
      </div>
      <input ref={filesRef} type="file" multiple hidden onChange={(e) => onChosen(e.currentTarget)} data-testid="share-file-input" />
      <input
        ref={(el) => {
          folderRef.current = el;
          // React does not know the attribute; the browser's folder chooser needs it.
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        onChange={(e) => onChosen(e.currentTarget)}
        data-testid="share-folder-input"
      />
    </section>
  );
}
