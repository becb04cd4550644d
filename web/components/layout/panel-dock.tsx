import { JobsPanel } from '../jobs/jobs-panel';
import { UploadPanel } from '../upload/upload-panel';
import { usePublishedSize } from './use-published-size';
import '../../styles/panel-dock.css';

/**
 * The one place the floating panels are put: a stack at the bottom (end corner on wide screens, side by side; the
 * full width on a phone, one above the other, above the selection bar). Its height is published as
 * `--panel-dock-size` so that the listing can be scrolled clear of it (see panel-dock.css).
 * Jobs come first in the page (and on top on a phone): uploads stay nearest the selection bar they start from.
 */
export function PanelDock() {
  const publish = usePublishedSize('--panel-dock-size');
  return (
    <div className="panel-dock" ref={publish} data-testid="panel-dock">
      <JobsPanel />
      <UploadPanel />
    </div>
  );
}
