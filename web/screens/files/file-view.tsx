import { Editor } from '../../components/editor/editor';
import { Previewer } from '../../components/preview/previewer';
import type { WebResource } from '../../api/resources';
import { goTo } from '../../state/navigation';
import { afterPreviewDelete } from '../../state/preview.state';
import { showPrompt } from '../../state/prompts.state';

const folderUrl = (path: string) => `/files${path.replace(/[^/]*$/, '').split('/').map(encodeURIComponent).join('/')}`.replace(/\/?$/, '/');
const fileUrl = (path: string) => `/files${path.split('/').map(encodeURIComponent).join('/')}`;

/**
 * A file on show: the editor for text (read-only for textImmutable), the previewer for anything else. The
 * previewer's rename, delete and info buttons open the same prompts as the listing.
 */
export function FileView({ resource }: { resource: WebResource }) {
  const close = () => goTo(folderUrl(resource.path));
  if (resource.type === 'text' || resource.type === 'textImmutable') return <Editor resource={resource} onClose={close} />;
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
