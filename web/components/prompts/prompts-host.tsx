import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { returnListingFocus } from '../../state/listing-focus.state';
import { closePrompt, prompts, type OpenPrompt } from '../../state/prompts.state';
import '../../styles/prompts.css';
import { ReplacePrompt, ReplaceRenamePrompt } from './conflict-prompt';
import { BatchRenamePrompt } from './batch-rename-prompt';
import { DeletePrompt } from './delete-prompt';
import { DownloadPrompt } from './download-prompt';
import { ExtractPrompt } from './extract-prompt';
import { HelpPrompt } from './help-prompt';
import { InfoPrompt } from './info-prompt';
import { NamePrompt } from './name-prompt';
import { RenamePrompt } from './rename-prompt';
import { ShareDeletePrompt } from './share-delete-prompt';
import { ShareManagePrompt } from './share-manage';
import { SharePrompt } from './share-prompt';
import { TransferPrompt } from './transfer-prompt';
import { UploadPrompt } from './upload-prompt';
import { VersionsPrompt } from '../versions/versions-prompt';
import { NotificationsPrompt } from '../notifications/notifications-prompt';

function Body({ prompt }: { prompt: OpenPrompt }) {
  switch (prompt.kind) {
    case 'info':
      return <InfoPrompt {...prompt.data} />;
    case 'help':
      return <HelpPrompt />;
    case 'delete':
      return <DeletePrompt {...prompt.data} />;
    case 'rename':
      return <RenamePrompt {...prompt.data} />;
    case 'batchRename':
      return <BatchRenamePrompt {...prompt.data} />;
    case 'move':
      return <TransferPrompt kind="move" {...prompt.data} />;
    case 'copy':
      return <TransferPrompt kind="copy" {...prompt.data} />;
    case 'newFile':
    case 'newDir':
      return <NamePrompt kind={prompt.kind} base={prompt.data.base} />;
    case 'download':
      return <DownloadPrompt {...prompt.data} />;
    case 'replace':
      return <ReplacePrompt {...prompt.data} />;
    case 'replaceRename':
      return <ReplaceRenamePrompt {...prompt.data} />;
    case 'share':
      return <SharePrompt {...prompt.data} />;
    case 'upload':
      return <UploadPrompt {...prompt.data} />;
    case 'extract':
      return <ExtractPrompt {...prompt.data} />;
    case 'shareDelete':
      return <ShareDeletePrompt {...prompt.data} />;
    case 'shareManage':
      return <ShareManagePrompt {...prompt.data} />;
    case 'notifications':
      return <NotificationsPrompt />;
    case 'versions':
      return <VersionsPrompt {...prompt.data} />;
  }
}

/** Shows the one open prompt over an overlay; Esc or a click on the overlay closes it. */
export function PromptsHost() {
  const { current, seq } = useSnapshot(prompts);
  const downOnOverlay = useRef(false);
  const open = current !== null;

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      closePrompt();
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      // The opener gets the focus back. A listing item goes through the listing: it may have been renamed, deleted
      // or moved meanwhile (then its successor takes the focus), and a prompt opened from the context menu has none.
      if (previous?.isConnected && previous !== document.body && !previous.closest('[data-testid=listing]')) previous.focus();
      else returnListingFocus();
    };
  }, [open]);

  if (!current) return null;
  // The snapshot of a ref()'d object is the object itself: callbacks and items come through untouched.
  const prompt = prompts.current;
  if (!prompt) return null;
  return (
    <div
      className="overlay"
      data-testid="overlay"
      // Only a press and release both on the overlay itself closes (not a text selection dragged out of a field).
      onMouseDown={(e) => (downOnOverlay.current = e.target === e.currentTarget)}
      onClick={(e) => {
        if (e.target === e.currentTarget && downOnOverlay.current) closePrompt();
      }}
    >
      <Body key={seq} prompt={prompt} />
    </div>
  );
}
