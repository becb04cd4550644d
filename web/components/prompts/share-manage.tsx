import type { Share } from '../../../server/contract/share';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { ShareEdit } from './share-edit';
import { ShareLog } from './share-log';
import { ShareRegenerate } from './share-regenerate';
import '../../styles/share-edit.css';

export type ManageView = 'edit' | 'log' | 'regenerate';

/** One link's edit, access log or new-address confirmation; `onDone` gets the changed link (none for the log). */
export function ShareManage({ share, view, isDir, onDone, onBack }: { share: Share; view: ManageView; isDir?: boolean; onDone(s?: Share): void; onBack(): void }) {
  if (view === 'edit') return <ShareEdit share={share} isDir={isDir} onSaved={onDone} onCancel={onBack} />;
  if (view === 'regenerate') return <ShareRegenerate share={share} onDone={onDone} onCancel={onBack} />;
  return <ShareLog share={share} onBack={onBack} />;
}

/** The same views as a prompt of their own, opened from the shares table in settings. */
export function ShareManagePrompt({ share, view, onDone }: PromptData['shareManage']) {
  const done = () => {
    closePrompt();
    onDone?.();
  };
  return <ShareManage share={share} view={view} onDone={done} onBack={closePrompt} />;
}
