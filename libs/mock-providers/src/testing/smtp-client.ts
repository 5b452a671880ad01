import { createTransport } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';

/** Shared by the mock-providers tests; not part of the library's API. */

export interface TestSend {
  port: number;
  from?: string;
  /** The envelope sender, when not the From address (a bounce address). */
  envelopeFrom?: string;
  to?: string | string[];
  /** Signs in with AUTH as this user, with any password. */
  user?: string;
  subject?: string;
  text?: string;
  /** STARTTLS when the mock offers it (its certificate unchecked); in the clear otherwise. */
  starttls?: boolean;
}

/** Sends one mail over its own connection with nodemailer's SMTP client, the way the platform's sender does. */
export async function sendTestMail(send: TestSend) {
  const transport = createTransport({
    host: '127.0.0.1',
    port: send.port,
    secure: false,
    ignoreTLS: !send.starttls,
    tls: { rejectUnauthorized: false },
    ...(send.user ? { auth: { user: send.user, pass: 'any password' } } : {}),
  });
  const mail: Mail.Options = {
    from: send.from ?? 'sender@letterbox.test',
    to: send.to ?? 'rcpt@example.test',
    subject: send.subject ?? 'Hello',
    text: send.text ?? 'Hello from the tests.',
    ...(send.envelopeFrom ? { envelope: { from: send.envelopeFrom, to: send.to ?? 'rcpt@example.test' } } : {}),
  };
  try {
    return await transport.sendMail(mail);
  } finally {
    transport.close();
  }
}

/** What nodemailer tells about a failed send. */
export interface SendFailure {
  code?: string;
  responseCode?: number;
  response?: string;
}

export async function failureOf(sending: Promise<unknown>): Promise<SendFailure> {
  try {
    await sending;
  } catch (error) {
    return error as SendFailure;
  }
  throw new Error('the send was expected to fail but succeeded');
}
