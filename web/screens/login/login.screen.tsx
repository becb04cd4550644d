import { useTranslation } from 'react-i18next';
import { Brand } from '../../components/ui/brand';
import { usePageTitle } from '../../components/layout/use-page-title';
import { LoginForm } from './login-form';

/** The login page: a centred card with the instance name and the login / sign-up form. */
export function LoginScreen() {
  const { t } = useTranslation();
  usePageTitle(t('routes.login'));
  return (
    <main className="login">
      <div className="login__card">
        <Brand size="lg" />
        <LoginForm />
      </div>
    </main>
  );
}
