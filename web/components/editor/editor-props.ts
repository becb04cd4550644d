import type { WebResource } from '../../api/resources';

/** Contract: the files screen renders this for text and textImmutable files (read-only for the latter). */
export interface EditorProps {
  resource: WebResource;
  onClose(): void;
  /** Opened for reading first (highlighted, read-only) with an Edit button that calls `onEdit` when editing is allowed. */
  viewing?: boolean;
  onEdit?(): void;
}
