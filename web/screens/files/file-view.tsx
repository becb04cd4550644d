import { TextFile } from '../../components/viewers/text-file';
import { Previewer } from '../../components/preview/previewer';
import type { WebResource } from '../../api/resources';
import { goTo } from '../../state/navigation';
import { afterPreviewDelete } from '../../state/preview.state';
import { showPrompt } from '../../state/prompts.state';

const folderUrl = (path: string) => `/files${path.replace(/[^/]*$/, '').split('/').map(encodeURIComponent).join('/')}`.replace(/\/?$/, '/');
const fileUrl = (path: string) => `/files${path.split('/').map(encodeURIComponent).join('/')}`;

/**
 * A file on show: text files in the viewers (rendered or read-only, then the editor), the previewer for anything else. The
 * previewer's rename, delete and info buttons open the same prompts as the listing.
 */
export function FileView({ resource }: { resource: WebResource }) {
  const close = () => goTo(folderUrl(resource.path));
  // ?edit opens a text file straight in the editor (a file just created); otherwise it opens for reading first.
  if (resource.type === 'text' || resource.type === 'textImmutable') return <TextFile resource={resource} onClose={close} startEditing={new URLSearchParams(window.location.search).has('edit')} />;
  return (
    <Previewer
      resource={resource}
      onClose={close}
      onRename={() => showPrompt('rename', { item: resource, onDone: (to) => goTo(fileUrl(to), true) })}
      // After the delete, the previewer's state moves on to the next sibling (or the folder).
      onDelete={() => showPrompt('delete', { items: [resource], onDone: afterPreviewDelete })}
      onInfo={() => showPrompt('info', { items: [resource] })}
    />
  );
}
