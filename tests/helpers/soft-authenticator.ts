import { createHash } from 'node:crypto';

/**
 * A software WebAuthn authenticator for API tests: an ES256 key pair per credential (WebCrypto), attestation
 * objects with fmt "none" (CBOR written here), authenticator data with flags and a signature counter, and
 * clientDataJSON as a browser writes it. Tests can bend any part (origin, counter, challenge) to play an attacker.
 */

const b64u = (b: Uint8Array | ArrayBuffer) => Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString('base64url');
const sha256 = (b: Uint8Array | string) => new Uint8Array(createHash('sha256').update(b).digest());

/** The few CBOR types an attestation needs: unsigned and negative integers, byte and text strings, maps. */
function cbor(v: unknown): Uint8Array {
  const head = (major: number, n: number): number[] => {
    if (n < 24) return [(major << 5) | n];
    if (n < 0x100) return [(major << 5) | 24, n];
    if (n < 0x10000) return [(major << 5) | 25, n >> 8, n & 0xff];
    return [(major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  };
  if (typeof v === 'number') return new Uint8Array(v >= 0 ? head(0, v) : head(1, -1 - v));
  if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8');
    return new Uint8Array([...head(3, b.length), ...b]);
  }
  if (v instanceof Uint8Array) return new Uint8Array([...head(2, v.length), ...v]);
  if (v instanceof Map) {
    const parts: number[] = head(5, v.size);
    for (const [k, x] of v) parts.push(...cbor(k), ...cbor(x));
    return new Uint8Array(parts);
  }
  throw new Error(`cbor: unsupported ${typeof v}`);
}

/** WebCrypto's raw r||s signature as the DER SEQUENCE WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const int = (x: Uint8Array) => {
    let i = 0;
    while (i < x.length - 1 && x[i] === 0) i++;
    const t = x.slice(i);
    return t[0]! & 0x80 ? [0x02, t.length + 1, 0, ...t] : [0x02, t.length, ...t];
  };
  const body = [...int(raw.slice(0, 32)), ...int(raw.slice(32))];
  return new Uint8Array([0x30, body.length, ...body]);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftCredential {
  id: Uint8Array;
  keys: CryptoKeyPair;
  rpId: string;
  userHandle: string;
  counter: number;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  /** Whether the authenticator verifies its user (sets UV). */
  userVerification = true;

  constructor(readonly origin: string) {}

  private authData(rpId: string, counter: number, attested?: { id: Uint8Array; cose: Uint8Array }): Uint8Array {
    const flags = FLAG_UP | (this.userVerification ? FLAG_UV : 0) | (attested ? FLAG_AT : 0);
    const out = [...sha256(rpId), flags, (counter >>> 24) & 0xff, (counter >> 16) & 0xff, (counter >> 8) & 0xff, counter & 0xff];
    if (attested) out.push(...new Uint8Array(16), attested.id.length >> 8, attested.id.length & 0xff, ...attested.id, ...attested.cose);
    return new Uint8Array(out);
  }

  private clientData(type: string, challenge: string, origin: string): Uint8Array {
    return new Uint8Array(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }

  /** navigator.credentials.create(): the RegistrationResponseJSON for creation options. */
  async create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, opts: { origin?: string } = {}): Promise<Record<string, unknown>> {
    const keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const jwk = await crypto.subtle.exportKey('jwk', keys.publicKey);
    const cose = cbor(new Map<number, unknown>([[1, 2], [3, -7], [-1, 1], [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))], [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))]]));
    const id = crypto.getRandomValues(new Uint8Array(32));
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const cred: SoftCredential = { id, keys, rpId, userHandle: options.user.id, counter: 0 };
    this.credentials.push(cred);
    const attestationObject = cbor(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', this.authData(rpId, 0, { id, cose })]]));
    return {
      id: b64u(id), rawId: b64u(id), type: 'public-key', authenticatorAttachment: 'platform', clientExtensionResults: {},
      response: { clientDataJSON: b64u(this.clientData('webauthn.create', options.challenge, opts.origin ?? this.origin)), attestationObject: b64u(attestationObject), transports: ['internal'] },
    };
  }

  /**
   * navigator.credentials.get(): an AuthenticationResponseJSON. The credential is the first allowed one this
   * authenticator holds (or `credential`); the counter goes up by one unless `counter` says otherwise.
   */
  async get(options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] }, opts: { origin?: string; credential?: SoftCredential; counter?: number } = {}): Promise<Record<string, unknown>> {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const cred = opts.credential ?? this.credentials.find((c) => !allowed.length || allowed.includes(b64u(c.id)));
    if (!cred) throw new Error('soft authenticator: no matching credential');
    cred.counter = opts.counter ?? cred.counter + 1;
    const authData = this.authData(options.rpId ?? cred.rpId, cred.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, opts.origin ?? this.origin);
    const signed = new Uint8Array([...authData, ...sha256(clientDataJSON)]);
    const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, cred.keys.privateKey, signed));
    return {
      id: b64u(cred.id), rawId: b64u(cred.id), type: 'public-key', authenticatorAttachment: 'platform', clientExtensionResults: {},
      response: { clientDataJSON: b64u(clientDataJSON), authenticatorData: b64u(authData), signature: b64u(derSignature(raw)), userHandle: cred.userHandle },
    };
  }
}
