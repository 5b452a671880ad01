import { randomUUID } from 'node:crypto';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { referenceAttachments, referenceMail } from '@letterbox/mail-generator';
import type { BlobStore } from '@letterbox/storage';
import type { TestUser } from '@letterbox/testing';

/** A plain message, CRLF, with a text or an HTML body. */
export function plainEml(options: { from: string; to: string; subject: string; text?: string; html?: string; date?: Date }): Buffer {
  const body = options.html ?? options.text ?? '';
  return Buffer.from(
    [
      `From: ${options.from}`,
      `To: ${options.to}`,
      `Subject: ${options.subject}`,
      `Date: ${(options.date ?? new Date()).toUTCString()}`,
      `Message-ID: <${randomUUID()}@sender.test>`,
      'MIME-Version: 1.0',
      `Content-Type: ${options.html ? 'text/html' : 'text/plain'}; charset=utf-8`,
      'Content-Transfer-Encoding: 8bit',
      '',
      body,
      '',
    ].join('\r\n'),
  );
}

export interface SeededMail {
  /** The medium reference mail: an inline image and two attachments. */
  report: { id: number; subject: string; attachment: { filename: string; content: Buffer } };
  remote: { id: number; subject: string };
  everydaySubjects: string[];
}

/**
 * The reader's inbox: the medium reference mail (unread, with attachments), a newsletter
 * with a remote image, and enough everyday mail for a second page.
 */
export async function seedInbox(db: Database, blobs: BlobStore, user: TestUser, remoteImageUrl: string): Promise<SeededMail> {
  const inbox = user.mailboxes.inbox;
  const everydaySubjects: string[] = [];
  for (let index = 1; index <= 55; index++) {
    const subject = `Everyday note ${String(index).padStart(2, '0')}`;
    everydaySubjects.push(subject);
    await storeMail(db, blobs, {
      userId: user.id,
      mailboxId: inbox,
      seen: true,
      receivedAt: new Date(Date.UTC(2026, 0, 1, 9, index)),
      eml: plainEml({ from: 'Colleague <colleague@example.test>', to: user.email, subject, text: `Note number ${index}.\r\nSee you.` }),
    });
  }
  const remoteSubject = 'Newsletter with a remote image';
  const remote = await storeMail(db, blobs, {
    userId: user.id,
    mailboxId: inbox,
    receivedAt: new Date(Date.now() - 60_000),
    eml: plainEml({
      from: 'News <news@example.test>',
      to: user.email,
      subject: remoteSubject,
      html: `<h1>Monthly news</h1><p>Our picture of the month:</p><img src="${remoteImageUrl}" alt="picture of the month" width="40" height="40">`,
    }),
  });
  const reportSubject = 'Quarterly report with attachments';
  const report = await storeMail(db, blobs, {
    userId: user.id,
    mailboxId: inbox,
    receivedAt: new Date(),
    eml: await referenceMail('medium', {
      from: { name: '김민준', address: 'minjun@example.test' },
      to: [{ name: 'Reader', address: user.email }],
      subject: reportSubject,
    }),
  });
  const pdf = referenceAttachments('medium').find((attachment) => attachment.filename.endsWith('.pdf'));
  if (!pdf) throw new Error('the medium reference mail has no PDF');
  return {
    report: { id: report.id, subject: reportSubject, attachment: { filename: pdf.filename, content: pdf.content } },
    remote: { id: remote.id, subject: remoteSubject },
    everydaySubjects,
  };
}
