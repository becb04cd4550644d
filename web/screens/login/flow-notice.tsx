import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Icon } from '../../components/ui/icon';
import { loginFlow } from '../../state/login-flow.state';

/** The login page's message of a failed step (wrong code, too many tries, expired ticket, single sign-on refused). */
export function FlowNotice() {
  const { t } = useTranslation();
  const { message } = useSnapshot(loginFlow);
  if (!message) return null;
  return (
    <p className="login__error" role="alert" data-testid="login-flow-error" data-message={message}>
      <Icon name="alert" />
      <span>{t(`login.${message}`)}</span>
    </p>
  );
}
