/** Who the browser must believe it talks to for a passkey: the RP ID (a host name) and the exact page origin. */
export interface RelyingParty {
  rpId: string;
  origin: string;
  /** Shown by the authenticator when a passkey is made. */
  name: string;
}

/**
 * The relying party for a request (decision 0045): the configured `webauthnRpId` / `webauthnOrigin` when set,
 * else the origin the request reached us at (scheme, host and port; `baseURL` is a path and no part of an
 * origin). A lying Host header cannot help an attacker: the authenticator signs the RP ID hash and the browser
 * the page's origin, both checked against what the challenge was made for.
 */
export function relyingParty(config: { webauthnRpId: string; webauthnOrigin: string }, servedOrigin: string, name: string): RelyingParty {
  const origin = config.webauthnOrigin || servedOrigin;
  let host = '';
  try {
    host = new URL(origin).hostname;
  } catch {
    host = '';
  }
  return { rpId: config.webauthnRpId || host.replace(/^\[|\]$/g, ''), origin, name: name || 'Filedeck' };
}
