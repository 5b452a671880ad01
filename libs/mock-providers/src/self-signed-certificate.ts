import { generate } from 'selfsigned';

export interface CertificateAndKey {
  /** PEM. */
  cert: string;
  key: string;
}

const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * A self-signed certificate for `names` (host names and IP addresses), valid for a year:
 * what the demo's and the tests' TLS listeners present. RSA: selfsigned's EC keys fail with
 * the second @peculiar/asn1-schema that mailauth brings.
 */
export async function selfSignedCertificate(names: string[]): Promise<CertificateAndKey> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const pems = await generate([{ name: 'commonName', value: names[0] }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + ONE_YEAR_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((name) => (isIp(name) ? { type: 7, ip: name } : { type: 2, value: name })) },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

const isIp = (name: string) => /^[\d.]+$|:/.test(name);
