import { ErrorText, Settings, SettingsWrite } from '../../contract/api/schemas';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const EXAMPLE = { signup: false, createUserDir: true, defaults: { scope: '.', locale: 'en' }, rules: [], branding: { name: 'Filedeck' } };

/** OpenAPI descriptions of settings.routes.ts. */
export const settingsApi: RouteDocs = {
  'GET /api/settings': { summary: 'Read the global settings', tags: ['settings'], auth: 'admin', responses: { 200: { description: 'the settings', ...json(Settings, EXAMPLE) } } },
  'PUT /api/settings': {
    summary: 'Change the global settings',
    tags: ['settings'],
    auth: 'admin',
    body: json(SettingsWrite, { signup: true }),
    responses: { 200: { description: 'saved', ...media('text/plain', ErrorText, '200 OK') }, 400: { description: 'an invalid field, named in the message' } },
  },
};
