// A software WebAuthn authenticator for tests: one ES256 (P-256) credential, 'none' attestation,
// answers built byte for byte as a browser and a security key would (authenticator data, CBOR
// attestation object, client data JSON, DER signature). It honours the options as a real key
// does: it refuses to register when excluded and to sign when not in the allow list.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;
// COSE (RFC 9053): key type EC2, algorithm ES256, curve P-256.
const COSE_KTY = 1, COSE_ALG = 3, COSE_CRV = -1, COSE_X = -2, COSE_Y = -3;
const KTY_EC2 = 2, ALG_ES256 = -7, CRV_P256 = 1;

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());
const b64url = (bytes: Uint8Array) => isoBase64URL.fromBuffer(bytes as Parameters<typeof isoBase64URL.fromBuffer>[0]);

export interface SoftAuthenticatorOptions {
  /** Reported transports; default usb. */
  transports?: string[];
  /** Whether it claims user verification (a PIN or fingerprint); default true. */
  userVerified?: boolean;
  /** How much the signature counter grows per assertion; 0 for authenticators that do not count. */
  counterStep?: number;
}

export interface CeremonyOverrides {
  /** The page's origin as the browser reports it (defaults to https://<rp id>). */
  origin?: string;
  /** The RP ID the authenticator hashes into its data (defaults to the options' one). */
  rpId?: string;
  /** Sign although the allow list does not name this credential (an unknown credential). */
  ignoreAllowList?: boolean;
}

export class SoftAuthenticator {
  readonly rawId = new Uint8Array(randomBytes(16));
  readonly id = b64url(this.rawId);
  /** The signature counter; tests may set it back to imitate a cloned key. */
  counter = 0;
  private userHandle: string | undefined;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor(private readonly options: SoftAuthenticatorOptions = {}) {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  }

  /** The credential public key as COSE, the bytes a relying party stores. */
  get cosePublicKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const key = new Map<number, number | Uint8Array>([
      [COSE_KTY, KTY_EC2],
      [COSE_ALG, ALG_ES256],
      [COSE_CRV, CRV_P256],
      [COSE_X, isoBase64URL.toBuffer(jwk.x!)],
      [COSE_Y, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    return isoCBOR.encode(key);
  }

  private flags(extra = 0): number {
    return FLAG_USER_PRESENT | (this.options.userVerified === false ? 0 : FLAG_USER_VERIFIED) | extra;
  }

  private authenticatorData(rpId: string, flags: number, attested?: Uint8Array): Uint8Array {
    const head = new Uint8Array(37);
    head.set(sha256(rpId), 0);
    head[32] = flags;
    new DataView(head.buffer).setUint32(33, this.counter);
    return attested ? new Uint8Array([...head, ...attested]) : head;
  }

  private clientData(type: string, challenge: string, origin: string): string {
    return isoBase64URL.fromUTF8String(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() with these options, as the browser would send it on. */
  register(options: PublicKeyCredentialCreationOptionsJSON, overrides: CeremonyOverrides = {}): RegistrationResponseJSON {
    if (options.excludeCredentials?.some((c) => c.id === this.id)) throw new Error('InvalidStateError: this authenticator is already registered');
    if (!options.pubKeyCredParams.some((p) => p.alg === ALG_ES256)) throw new Error('NotSupportedError: ES256 not offered');
    const rpId = overrides.rpId ?? options.rp.id ?? '';
    this.userHandle = options.user.id;
    // Attested credential data: AAGUID (zeros for 'none'), credential id length and id, COSE key.
    const idLength = new Uint8Array(2);
    new DataView(idLength.buffer).setUint16(0, this.rawId.length);
    const attested = new Uint8Array([...new Uint8Array(16), ...idLength, ...this.rawId, ...this.cosePublicKey]);
    const authData = this.authenticatorData(rpId, this.flags(FLAG_ATTESTED_CREDENTIAL), attested);
    const attestationObject = isoCBOR.encode(new Map<string, string | Uint8Array | Map<string, string>>([
      ['fmt', 'none'],
      ['attStmt', new Map<string, string>()],
      ['authData', authData],
    ]));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, overrides.origin ?? `https://${rpId}`),
        attestationObject: b64url(attestationObject),
        transports: (this.options.transports ?? ['usb']) as RegistrationResponseJSON['response']['transports'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    };
  }

  /** navigator.credentials.get() with these options: a signature over the challenge. */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, overrides: CeremonyOverrides = {}): AuthenticationResponseJSON {
    const allowed = options.allowCredentials ?? [];
    if (!overrides.ignoreAllowList && allowed.length > 0 && !allowed.some((c) => c.id === this.id)) {
      throw new Error('NotAllowedError: this authenticator holds none of the allowed credentials');
    }
    const rpId = overrides.rpId ?? options.rpId ?? '';
    this.counter += this.options.counterStep ?? 1;
    const authData = this.authenticatorData(rpId, this.flags());
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides.origin ?? `https://${rpId}`);
    // ES256 signs authenticatorData ‖ sha256(clientDataJSON); Node's ECDSA output is DER, as WebAuthn wants.
    const signature = sign('sha256', new Uint8Array([...authData, ...sha256(isoBase64URL.toBuffer(clientDataJSON))]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: b64url(authData),
        signature: b64url(new Uint8Array(signature)),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    };
  }
}
