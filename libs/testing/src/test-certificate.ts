import { X509Certificate } from 'node:crypto';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** PEM. */
  cert: string;
  key: string;
  /** SHA-256, as node's X509Certificate and TLS peer certificates give it. */
  fingerprint: string;
}

/**
 * A new self-signed certificate for 127.0.0.1 and localhost, written to cert.pem and
 * key.pem in `dir` (a new temporary folder unless given). Each file is written aside and
 * renamed into place, as a renewal does, so a watcher never reads half a file.
 */
export async function writeTestCertificate(dir = mkdtempSync(path.join(tmpdir(), 'letterbox-tls-'))): Promise<TestCertificate> {
  // Loaded here, not with the module: the certificate library costs every test file that imports
  // @letterbox/testing most of a second, and few of them make a certificate.
  const { selfSignedCertificate } = await import('@letterbox/mock-providers');
  const { cert, key } = await selfSignedCertificate(['localhost', '127.0.0.1']);
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  for (const [file, pem] of [
    [keyFile, key],
    [certFile, cert],
  ]) {
    writeFileSync(`${file}.new`, pem);
    renameSync(`${file}.new`, file);
  }
  return { certFile, keyFile, cert, key, fingerprint: new X509Certificate(cert).fingerprint256 };
}
