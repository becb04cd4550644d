import { lazy, Suspense, useEffect, useState } from 'react';
import type { WebResource } from '../../api/resources';
import { Editor } from '../editor/editor';
import { documentKind } from './viewer-kind';

// Markdown, CSV and JSON views load on demand: the listing page's script stays small.
const DocumentViewer = lazy(() => import('./document-viewer').then((m) => ({ default: m.DocumentViewer })));

export interface TextFileProps {
  resource: WebResource;
  onClose(): void;
  /** Open in the editor at once (a file just created). */
  startEditing?: boolean;
}

/**
 * A text file opens for reading first: Markdown rendered, CSV/TSV as a table, JSON as a tree, anything else in the
 * read-only code view with highlighting. Edit (offered only when the file may be changed) opens the editor.
 */
export function TextFile({ resource, onClose, startEditing = false }: TextFileProps) {
  const [editing, setEditing] = useState(startEditing);
  useEffect(() => {
    setEditing(startEditing);
  }, [resource.path, startEditing]);
  const edit = () => setEditing(true);
  const kind = documentKind(resource.name);
  if (editing || !kind || resource.content === undefined)
    return <Editor key={String(editing)} resource={resource} onClose={onClose} viewing={!editing} onEdit={edit} />;
  return (
    <Suspense fallback={<section className="doc-viewer" aria-busy="true" />}>
      <DocumentViewer resource={resource} kind={kind} onClose={onClose} onEdit={edit} />
    </Suspense>
  );
}
