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
 * A text file opens in the editor, ready to type (spec §2: /files/{path} is the editor for text items; read-only
 * with a badge when the file may not be changed). Documents that have a rendered view open rendered first:
 * Markdown, CSV/TSV as a table, JSON as a tree; their Edit button, or the E key, switches to the editor.
 */
export function TextFile({ resource, onClose, startEditing = false }: TextFileProps) {
  const [editing, setEditing] = useState(startEditing);
  useEffect(() => {
    setEditing(startEditing);
  }, [resource.path, startEditing]);
  const edit = () => setEditing(true);
  const kind = documentKind(resource.name);
  if (editing || !kind || resource.content === undefined) return <Editor resource={resource} onClose={onClose} />;
  return (
    <Suspense fallback={<section className="doc-viewer" aria-busy="true" />}>
      <DocumentViewer resource={resource} kind={kind} onClose={onClose} onEdit={edit} />
    </Suspense>
  );
}
