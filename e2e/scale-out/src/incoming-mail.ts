import nodemailer, { type Transporter } from 'nodemailer';
import { GATEWAY_TOKEN, type IngestApp } from './platform';

export interface IncomingMail {
  messageId: string;
  to: string;
  raw: string;
  /** Half come from gateways over HTTP, half from mail servers over SMTP. */
  via: 'http' | 'smtp';
}

export interface IncomingTally {
  /** Messages acknowledged (202 or 250). */
  acknowledged: number;
  /** Tries that failed and were made again on the other ingest app, as a gateway or mail server does. */
  retried: number;
}

/** `count` messages, each with a Message-ID of its own, to the recipients in turn. */
export function incomingMails(run: string, recipients: string[], count: number): IncomingMail[] {
  return Array.from({ length: count }, (_, index) => {
    const messageId = `<${run}.${index}@scale-out.test>`;
    const to = recipients[index % recipients.length];
    const raw = [
      `From: Sender ${index} <sender${index}@example.org>`,
      `To: ${to}`,
      `Subject: scale-out ${index}`,
      `Message-ID: ${messageId}`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      `Message ${index} of run ${run}.`,
      '',
    ].join('\r\n');
    return { messageId, to, raw, via: index % 2 === 0 ? 'http' : 'smtp' };
  });
}

/**
 * Hands the messages to the two ingest apps, `concurrency` at a time, each first to one app
 * and then the other in turn: a message is tried again on the other app until one
 * acknowledges it, as a sender does while an app is down. Calls `progress` after each.
 */
export async function deliverIncoming(
  ingests: IngestApp[],
  mails: IncomingMail[],
  concurrency: number,
  progress: (acknowledged: number) => void,
): Promise<IncomingTally> {
  const transports = ingests.map((ingest) =>
    nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 8 }),
  );
  const tally: IncomingTally = { acknowledged: 0, retried: 0 };
  let next = 0;
  const lane = async () => {
    while (next < mails.length) {
      const index = next++;
      const mail = mails[index];
      for (let attempt = 0; ; attempt++) {
        const target = (Math.floor(index / 2) + attempt) % ingests.length;
        if (await handOver(mail, ingests[target], transports[target])) break;
        tally.retried++;
        if (attempt > 50) throw new Error(`no ingest app took ${mail.messageId}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      progress(++tally.acknowledged);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
  } finally {
    for (const transport of transports) transport.close();
  }
  return tally;
}

/** Resolves whether the app acknowledged the message; a refusal other than a temporary one is a failure of the test. */
async function handOver(mail: IncomingMail, ingest: IngestApp, smtp: Transporter): Promise<boolean> {
  if (mail.via === 'http') {
    let response: Response;
    try {
      response = await fetch(`${ingest.url}/v2/inbound?to=${encodeURIComponent(mail.to)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${GATEWAY_TOKEN}`, 'content-type': 'message/rfc822' },
        body: mail.raw,
      });
    } catch {
      return false;
    }
    const body = await response.text().catch(() => '');
    if (response.status === 202) return true;
    if (response.status >= 500) return false;
    throw new Error(`POST /v2/inbound of ${mail.messageId}: ${response.status} ${body}`);
  }
  try {
    await smtp.sendMail({ envelope: { from: 'relay@example.org', to: [mail.to] }, raw: mail.raw });
    return true;
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    if (code !== undefined && code >= 500) throw new Error(`SMTP refused ${mail.messageId}: ${(error as Error).message}`);
    return false;
  }
}
