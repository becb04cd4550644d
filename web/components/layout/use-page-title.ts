import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { instanceName } from '../../api/page-config';

/** Sets the document title to "<label> - <instance name>". */
export function usePageTitle(label: string): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = label ? t('app.pageTitle', { label, name: instanceName }) : instanceName;
  }, [label, t]);
}
