import { relyingParty, type RelyingParty } from '../services/factors/relying-party';
import type { Services } from '../services/services';
import type { ClientIp } from './client-ip';
import { publicOrigin } from './public-origin';

/** The passkey relying party of a request: configured, else the origin the browser reached us at (decision 0045). */
export function rpOf(s: Services, request: Request, server: unknown, ip: ClientIp): RelyingParty {
  return relyingParty(s.config, publicOrigin(request, server, ip), s.settings.get().branding.name);
}
