import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A test domain's DKIM key, shaped as mailauth's signer takes it: `dkimSign(message, { ...key, signTime: new Date(), signatureData: [{ ...key }] })`
 * (it writes on the entries). Without signTime, mailauth reads the clock twice, once for the t= it
 * signs and once for the t= it writes, and about one signature in 500 straddles a half second and fails. */
export interface TestDkimKey {
  signingDomain: string;
  selector: string;
  algorithm: 'rsa-sha256' | 'ed25519-sha256';
  /** PKCS#8 PEM. */
  privateKey: string;
}

const fixture = (file: string) => readFileSync(path.join(__dirname, 'dns-fixtures', file), 'utf8');

/** The test keys whose public halves the mock DNS publishes (see dns-fixtures/README.md): never for real mail. */
export const TEST_DKIM_KEYS = {
  /** pass.example's RSA-2048 key, selector rsa2048. */
  passRsa: { signingDomain: 'pass.example', selector: 'rsa2048', algorithm: 'rsa-sha256', privateKey: fixture('pass.example-rsa2048.pem') },
  /** pass.example's Ed25519 key, selector ed25519. */
  passEd25519: { signingDomain: 'pass.example', selector: 'ed25519', algorithm: 'ed25519-sha256', privateKey: fixture('pass.example-ed25519.pem') },
  /** weak.example's 512-bit RSA key, selector weak: a verifier refuses it. */
  weak: { signingDomain: 'weak.example', selector: 'weak', algorithm: 'rsa-sha256', privateKey: fixture('weak.example-weak.pem') },
} satisfies Record<string, TestDkimKey>;
