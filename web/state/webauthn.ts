import {
  browserSupportsWebAuthn, startAuthentication, startRegistration,
  type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/** The browser can run a WebAuthn ceremony (a secure context: https or localhost). */
export const webAuthnAvailable = (): boolean => typeof window !== 'undefined' && browserSupportsWebAuthn();

/** Asks the authenticator to sign the server's challenge; answers the response JSON the server verifies. */
export function signChallenge(options: unknown): Promise<unknown> {
  return startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
}

/** Asks the authenticator to make a new credential for the server's creation options. */
export function makeCredential(options: unknown): Promise<unknown> {
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
}

/** The user closed the browser's passkey prompt or it timed out: not an error worth a popup. */
export const isCeremonyCancelled = (e: unknown): boolean => e instanceof Error && (e.name === 'NotAllowedError' || e.name === 'AbortError');
