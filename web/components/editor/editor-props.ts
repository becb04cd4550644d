import type { WebResource } from '../../api/resources';

/** Contract: the files screen renders this for text and textImmutable files ready to type (read-only, with a badge, for the latter and without modify). */
export interface EditorProps {
  resource: WebResource;
  onClose(): void;
}
