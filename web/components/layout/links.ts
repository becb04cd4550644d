/** The project's home and issue tracker (hidden or shown as plain text when external links are disabled). */
export const PROJECT_URL = 'https://github.com/filedeck/filedeck';
export const ISSUES_URL = `${PROJECT_URL}/issues/new`;
