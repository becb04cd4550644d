import type { WebResource } from '../../api/resources';

/**
 * Contract between the files screen and the viewers slice. The files screen renders this for a file whose type
 * is not text/textImmutable; the previewer loads the parent folder itself for previous/next.
 */
export interface PreviewerProps {
  resource: WebResource;
  /** Back to the containing folder. */
  onClose(): void;
  /** Actions shown by permission; the files screen opens the matching prompts. */
  onRename(): void;
  onDelete(): void;
  onInfo(): void;
}
