export interface ReceivedMail {
  /** Also given to the client in the 250 reply, as a provider's queue id is. */
  id: string;
  envelope: { from: string; to: string[] };
  account: string;
  /** Milliseconds since the epoch. */
  acceptedAt: number;
  /** How the client's STARTTLS went; null when the mail came in the clear. */
  tls: ReceivedOverTls | null;
  /** The message as the client sent it. */
  raw: Buffer;
}

export interface ReceivedOverTls {
  /** As negotiated: TLSv1.2, TLSv1.3. */
  protocol: string;
  /** OpenSSL's name for it. */
  cipher: string;
}

/** Addresses and accounts match whatever their case. */
export interface MailFilter {
  to?: string;
  account?: string;
}

/** The latest accepted mails, oldest first; older ones are forgotten so a long benchmark does not fill memory. */
export class ReceivedMails {
  private readonly mails: ReceivedMail[] = [];

  add(mail: ReceivedMail, keep: number): void {
    this.mails.push(mail);
    this.keepLatest(keep);
  }

  keepLatest(keep: number): void {
    if (this.mails.length > keep) this.mails.splice(0, this.mails.length - keep);
  }

  list(filter: MailFilter = {}): ReceivedMail[] {
    const to = filter.to?.toLowerCase();
    const account = filter.account?.toLowerCase();
    return this.mails.filter(
      (mail) =>
        (to === undefined || mail.envelope.to.some((address) => address.toLowerCase() === to)) &&
        (account === undefined || mail.account.toLowerCase() === account),
    );
  }

  clear(): void {
    this.mails.length = 0;
  }
}
