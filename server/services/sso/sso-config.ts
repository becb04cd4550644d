import type { SsoSections } from '../../core/config';
import type { SettingsService } from '../settings/settings.service';
import { normaliseAccountField } from './sso-settings';

/**
 * The config file's `oidc:` and `ldap:` sections, applied over the stored settings at start: validated as a settings
 * change (a bad field stops the start with its name), written only when they change something, so every start of
 * an unchanged file writes and audits nothing. Fields the file leaves out keep their stored value.
 */
export async function applySsoConfig(settings: SettingsService, sections: SsoSections | undefined): Promise<void> {
  if (!sections) return;
  const current = settings.get();
  const patch: Record<string, unknown> = {};
  for (const key of ['oidc', 'ldap'] as const) {
    const section = sections[key];
    if (!section) continue;
    const next = normaliseAccountField(key, section, current)[key];
    if (JSON.stringify(next) !== JSON.stringify(current[key])) patch[key] = section;
  }
  if (Object.keys(patch).length) await settings.update(patch, Object.keys(patch));
}
