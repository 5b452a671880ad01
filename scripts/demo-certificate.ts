import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_DOMAIN } from '@letterbox/demo-data';
import { selfSignedCertificate } from '@letterbox/mock-providers';

/**
 * The demo's SMTP certificate: self-signed for the demo's mail host, localhost and
 * 127.0.0.1, made once into tmp/tls/ (the folder given as the first argument), so that
 * a client that pinned it still finds it after a restart.
 */
async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'tmp', 'tls'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) return;
  const names = [`mx.${DEMO_DOMAIN}`, 'localhost', '127.0.0.1'];
  const { cert, key } = await selfSignedCertificate(names);
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyFile, key, { mode: 0o600 });
  writeFileSync(certFile, cert);
  console.log(`demo TLS certificate for ${names.join(', ')} written to ${certFile}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
