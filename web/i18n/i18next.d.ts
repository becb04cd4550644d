import 'i18next';
import type en from '../../locales/en.json';

// Translation keys are typed from the English catalogue: t('login.usernam') is a compile error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    returnNull: false;
  }
}
