import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

export const DKIM_ALGORITHMS = ['rsa-sha256', 'ed25519-sha256'] as const;
export type DkimAlgorithm = (typeof DKIM_ALGORITHMS)[number];

export interface DkimKeyPair {
  algorithm: DkimAlgorithm;
  /** Base64, as the TXT record's p= publishes it. */
  publicKey: string;
  /** PKCS#8 DER. */
  privateKeyDer: Buffer;
}

/** The raw key of an Ed25519 SubjectPublicKeyInfo: its last 32 bytes (RFC 8410's fixed 12-byte prefix before them). */
const ED25519_RAW_KEY_BYTES = 32;

/**
 * A new key pair. RSA is 2048 bits, what every verifier takes and a TXT record holds; RFC 8463
 * publishes an Ed25519 key as its raw 32 bytes, not wrapped in a SubjectPublicKeyInfo as RSA's is.
 * Generated off the event loop: an RSA key takes tens of milliseconds.
 */
export async function generateDkimKeyPair(algorithm: DkimAlgorithm): Promise<DkimKeyPair> {
  const { publicKey, privateKey } =
    algorithm === 'rsa-sha256'
      ? await generate('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'der' } })
      : await generate('ed25519', { publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'der' } });
  const published = algorithm === 'rsa-sha256' ? publicKey : publicKey.subarray(publicKey.length - ED25519_RAW_KEY_BYTES);
  return { algorithm, publicKey: published.toString('base64'), privateKeyDer: privateKey };
}
