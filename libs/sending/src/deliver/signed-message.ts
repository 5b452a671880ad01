import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type Mail from 'nodemailer/lib/mailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { dkimSignatureHeaders, type DkimSigningKey } from '@letterbox/dkim';

/**
 * The message as the provider gets it, its DKIM-Signature headers first. The signatures cover the
 * whole body, and go before it: the message is compiled twice, once through the signer and once to
 * the provider, both times from the blobs' streams, with the same multipart boundary (the only
 * thing nodemailer draws at random once Message-ID and Date are given), so both are byte-identical.
 * Compiling twice, not spilling the compiled message to a temporary file: no disk space to find and
 * clean up for hundreds of concurrent deliveries of large attachments, and nothing held in memory
 * either way; what it costs is reading the attachments twice and encoding them twice.
 * `compose` makes the options anew each time: their attachment streams are read once.
 */
export async function signedMessage(compose: () => Mail.Options, keys: DkimSigningKey[]): Promise<Readable> {
  const baseBoundary = randomBytes(8).toString('hex');
  const compile = () => {
    const options: Mail.Options & { baseBoundary: string } = { ...compose(), baseBoundary };
    return new MailComposer(options).compile().createReadStream();
  };
  return signedStream(compile, keys);
}

/** A message already written (a redirected one), read twice in the same way: once through the signer, once to the provider. */
export async function signedStream(open: () => Readable, keys: DkimSigningKey[]): Promise<Readable> {
  const signatures = await dkimSignatureHeaders(open(), keys);
  return Readable.from(prepended(signatures, open()));
}

async function* prepended(headers: string, message: Readable): AsyncGenerator<Buffer> {
  yield Buffer.from(headers);
  yield* message;
}
