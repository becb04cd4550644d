import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { StoredUser } from '../../contract/user';
import type { PasskeyInfo } from '../../contract/accounts';
import { exists, forbidden, invalid, notFound } from '../../core/errors';
import type { PasskeyRow, PasskeysStore } from '../../db/passkeys.store';
import type { TicketRow } from '../../db/login-tickets.store';
import type { LoginTickets } from './login-tickets';
import type { RelyingParty } from './relying-party';

/** Passkeys one user may register. */
export const MAX_PASSKEYS_PER_USER = 20;
const TIMEOUT_MS = 120_000;

/**
 * @simplewebauthn/server, loaded at the first ceremony: with its X.509 and ASN.1 stack it was the largest part of the
 * server's start-up (~0.28 s from sources) and stays in memory in every process that never sees a passkey (issue 39).
 */
let lib: Promise<typeof import('@simplewebauthn/server')> | null = null;
// The Reflect polyfill first: in the compiled binary a lazily loaded @simplewebauthn/server evaluated tsyringe (under
// @peculiar/x509) before the polyfill its own helpers import, and every ceremony failed with "tsyringe requires a
// reflect polyfill" (500). Loaded eagerly, as before, the order happened to be right.
const webauthn = () => (lib ??= import('reflect-metadata').then(() => import('@simplewebauthn/server')));

/** The WebAuthn user handle: opaque, stable per account (account ids are never reused). */
export const userHandleOf = (userId: number) => Buffer.from(`filedeck:${userId}`).toString('base64url');

export function passkeyName(v: unknown): string {
  if (typeof v !== 'string') throw invalid('name must be text');
  const name = v.trim();
  if (!name || name.length > 100 || /[\x00-\x1f\x7f]/.test(name)) throw invalid('name must be 1 to 100 characters without control characters');
  return name;
}

export const passkeyInfo = (p: PasskeyRow): PasskeyInfo => ({ id: p.id, name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt });

/** A browser's answer: a JSON object with a string id, else 400 (the library is given nothing it did not expect). */
function credentialJson<T>(v: unknown): T & { id: string } {
  if (!v || typeof v !== 'object' || Array.isArray(v) || typeof (v as { id?: unknown }).id !== 'string' || (v as { id: string }).id.length > 1400) throw invalid('response must be a WebAuthn credential (JSON)');
  return v as T & { id: string };
}

/**
 * Passkeys with @simplewebauthn/server: the ceremonies' options (their challenge kept in a login ticket row) and the
 * checks of what the browser answers. The caller (FactorsService) holds rate limits, tickets of the login and audit.
 */
export class PasskeysFactor {
  constructor(private readonly store: PasskeysStore, private readonly tickets: LoginTickets, private readonly now: () => number = Date.now) {}

  list(userId: number): Promise<PasskeyRow[]> {
    return this.store.ofUser(userId);
  }

  count(userId: number): Promise<number> {
    return this.store.count(userId);
  }

  /** Creation options for the signed-in user: discoverable (usable without a password), UV preferred. */
  async registrationOptions(user: StoredUser, rp: RelyingParty, address: string): Promise<{ challengeId: string; options: unknown }> {
    const mine = await this.store.ofUser(user.id);
    if (mine.length >= MAX_PASSKEYS_PER_USER) throw invalid(`at most ${MAX_PASSKEYS_PER_USER} passkeys per account`);
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: rp.name, rpID: rp.rpId, userName: user.username, userDisplayName: user.username,
      userID: Buffer.from(userHandleOf(user.id), 'base64url'), attestationType: 'none', timeout: TIMEOUT_MS,
      excludeCredentials: mine.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
    });
    const challengeId = await this.tickets.issue('passkey-register', user.id, { challenge: options.challenge, rpId: rp.rpId, origin: rp.origin }, address);
    return { challengeId, options };
  }

  /** Checks an attestation against its challenge (taken: single use) and stores the new passkey. */
  async register(user: StoredUser, challengeId: unknown, response: unknown, name: unknown, address: string): Promise<PasskeyRow> {
    const label = passkeyName(name);
    const body = credentialJson<RegistrationResponseJSON>(response);
    const ch = await this.tickets.open(challengeId, address, ['passkey-register']);
    if (ch.userId !== user.id) throw forbidden('this challenge belongs to another session');
    await this.tickets.take(ch.id);
    const { verifyRegistrationResponse } = await webauthn();
    let info;
    try {
      const r = await verifyRegistrationResponse({ response: body, expectedChallenge: String(ch.payload.challenge), expectedOrigin: String(ch.payload.origin), expectedRPID: String(ch.payload.rpId), requireUserVerification: false });
      if (!r.verified) throw new Error('not verified');
      info = r.registrationInfo;
    } catch (e) {
      throw forbidden(`the passkey could not be verified: ${(e as Error).message.slice(0, 200)}`);
    }
    const row: PasskeyRow = {
      id: info.credential.id, userId: user.id, name: label, publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter, transports: (info.credential.transports ?? []).slice(0, 8), deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp, createdAt: this.now(), lastUsedAt: null,
    };
    if (!(await this.store.insert(row))) throw exists('this passkey is already registered');
    return row;
  }

  /** Request options: the listed user's passkeys (second factor, UV preferred), or any discoverable one (UV required). */
  async loginOptions(userId: number | null, secondFactorTicket: string | null, rp: RelyingParty, address: string): Promise<{ challengeId: string; options: unknown }> {
    const allow = userId === null ? [] : await this.store.ofUser(userId);
    if (userId !== null && allow.length === 0) throw invalid('this account has no passkey');
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: rp.rpId, timeout: TIMEOUT_MS, userVerification: userId === null ? 'required' : 'preferred',
      allowCredentials: allow.map((p) => ({ id: p.id, transports: p.transports })),
    });
    const payload = { challenge: options.challenge, rpId: rp.rpId, origin: rp.origin, ticket: secondFactorTicket };
    const challengeId = await this.tickets.issue('passkey-login', userId, payload, address);
    return { challengeId, options };
  }

  /**
   * Checks an assertion against its challenge (already taken by the caller) and the stored credential: the
   * signature, the RP ID hash, the origin, user verification when passwordless, a counter that moved forward, and
   * for a second factor that the passkey is the ticket's user's. The counter is stored only if unchanged since it
   * was read. Returns the passkey, or throws 403.
   */
  async verifyAssertion(ch: TicketRow, response: unknown): Promise<PasskeyRow> {
    const body = credentialJson<AuthenticationResponseJSON>(response);
    const pk = await this.store.byId(body.id);
    if (!pk) throw forbidden('unknown passkey');
    if (ch.userId !== null && pk.userId !== ch.userId) throw forbidden('this passkey belongs to another account');
    const handle = body.response?.userHandle;
    if (handle && handle !== userHandleOf(pk.userId)) throw forbidden('the passkey names another account');
    const { verifyAuthenticationResponse } = await webauthn();
    let info;
    try {
      const r = await verifyAuthenticationResponse({
        response: body, expectedChallenge: String(ch.payload.challenge), expectedOrigin: String(ch.payload.origin), expectedRPID: String(ch.payload.rpId),
        credential: { id: pk.id, publicKey: Buffer.from(pk.publicKey, 'base64url'), counter: pk.counter, transports: pk.transports },
        requireUserVerification: ch.userId === null,
      });
      if (!r.verified) throw new Error('not verified');
      info = r.authenticationInfo;
    } catch (e) {
      throw forbidden(`the passkey could not be verified: ${(e as Error).message.slice(0, 200)}`);
    }
    if (!(await this.store.used(pk.id, pk.counter, info.newCounter, info.credentialBackedUp, this.now()))) throw forbidden('the passkey was used concurrently');
    return pk;
  }

  async rename(userId: number, id: string, name: unknown): Promise<void> {
    if (!(await this.store.rename(userId, id, passkeyName(name)))) throw notFound('no such passkey');
  }

  async remove(userId: number, id: string): Promise<void> {
    if (!(await this.store.delete(userId, id))) throw notFound('no such passkey');
  }

  async removeAll(userId: number): Promise<number> {
    return this.store.deleteAll(userId);
  }
}

