import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionInfo } from '../../../server/contract/accounts';
import { endOtherSessions, endSession } from '../../state/account.state';
import { ConfirmDialog } from '../settings/confirm-dialog';
import { SessionsTable } from './sessions-table';

/** The user's sessions (this device marked), each can be ended; "sign out everywhere else" ends all but this one. */
export function SessionsCard({ sessions }: { sessions: readonly SessionInfo[] }) {
  const { t } = useTranslation();
  const [ending, setEnding] = useState<SessionInfo | 'others' | null>(null);
  const others = sessions.filter((s) => !s.current).length;

  return (
    <section className="settings-card" data-testid="sessions-card">
      <div className="settings-card__head account-card-head">
        <h2 className="settings-card__title">{t('account.sessions.title')}</h2>
        <button type="button" className="btn btn--secondary settings-btn--small" disabled={!others} onClick={() => setEnding('others')} data-testid="sessions-end-others">
          {t('account.sessions.endOthers')}
        </button>
      </div>
      <div className="settings-card__body settings-card__body--flush">
        <SessionsTable sessions={sessions} onEnd={(s) => setEnding(s)} />
      </div>
      {ending && (
        <ConfirmDialog
          title={t(ending === 'others' ? 'account.sessions.endOthers' : 'account.sessions.endTitle')}
          message={ending === 'others' ? t('account.sessions.endOthersMessage', { count: others }) : t('account.sessions.endMessage', { device: ending.device })}
          confirmLabel={t('account.sessions.end')}
          danger
          onCancel={() => setEnding(null)}
          onConfirm={async () => {
            await (ending === 'others' ? endOtherSessions() : endSession(ending.id));
            setEnding(null);
          }}
        />
      )}
    </section>
  );
}

