import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * A setting naming a PEM file, optional: when set, the file must be readable and hold a
 * `kind`, checked when the settings are loaded, so a wrong path stops the app at start
 * instead of failing its first TLS handshake.
 */
export function pemFileSetting(kind: 'certificate' | 'private key') {
  const file = z.string().superRefine((path, context) => {
    const problem = pemFileProblem(path, kind);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
  return z.preprocess((value) => (value === '' ? undefined : value), file.optional());
}

function pemFileProblem(path: string, kind: 'certificate' | 'private key'): string | undefined {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    return `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  try {
    if (kind === 'certificate') new X509Certificate(pem);
    else createPrivateKey(pem);
    return undefined;
  } catch {
    return `not a PEM ${kind}`;
  }
}

/** Settings set together or not at all, as a certificate and its key: loadConfig names the one missing. */
export const pairedSettings: [string, string][] = [
  ['INGEST_SMTP_TLS_CERT', 'INGEST_SMTP_TLS_KEY'],
  ['SUBMISSION_TLS_CERT', 'SUBMISSION_TLS_KEY'],
  ['MOCK_SMTP_TLS_CERT', 'MOCK_SMTP_TLS_KEY'],
  ['WEBMAIL_TLS_CERT', 'WEBMAIL_TLS_KEY'],
  ['IMAP_TLS_CERT', 'IMAP_TLS_KEY'],
];
