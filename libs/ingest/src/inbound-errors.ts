/** Why an incoming message was refused. Each is the sender's to fix, so none is accepted. */
export class InboundRejectedError extends Error {}

export class EmptyMessageError extends InboundRejectedError {
  constructor() {
    super('the message is empty');
  }
}

export class NotAMessageError extends InboundRejectedError {
  constructor(reason: string) {
    super(`not an RFC 5322 message: ${reason}`);
  }
}

export class MessageTooLargeError extends InboundRejectedError {
  constructor(readonly limitBytes: number) {
    super(`the message is larger than ${limitBytes} bytes`);
  }
}

export class UnknownRecipientsError extends InboundRejectedError {
  constructor(readonly addresses: string[]) {
    super(`no Letterbox user ${addresses.join(', ')}`);
  }
}

export class NoRecipientsError extends InboundRejectedError {
  constructor() {
    super("no recipient is a Letterbox user: name them as `to`, or in the message's To, Cc or Bcc");
  }
}

/** Recipients in a domain no office owns: Letterbox is not their mail server, and does not relay. */
export class ForeignRecipientsError extends InboundRejectedError {
  constructor(readonly addresses: string[]) {
    super(`not a Letterbox domain, relaying denied: ${addresses.join(', ')}`);
  }
}

/** An address whose mailbox cannot take the message: its user's, or every member's of its group. */
export interface FullAddress {
  address: string;
  /** The user's usage, for a user's address; a group's members each have their own. */
  usage?: { usedBytes: number; quotaBytes: number };
}

export class QuotaExceededError extends InboundRejectedError {
  constructor(
    readonly full: FullAddress[],
    readonly messageBytes: number,
  ) {
    super(`${full.map(describeFull).join('; ')} (the message is ${messageBytes} bytes)`);
  }
}

function describeFull({ address, usage }: FullAddress): string {
  return usage
    ? `the mailbox of ${address} is full: ${usage.usedBytes} bytes used of its quota of ${usage.quotaBytes} bytes`
    : `every member of the group ${address} is over their quota`;
}

/** A message rspamd gave its `reject` action, with SPAM_REJECT on: refused before it is acknowledged. */
export class SpamRejectedError extends InboundRejectedError {
  constructor(readonly score: number) {
    super(`refused as spam (score ${score.toFixed(1)})`);
  }
}

/** A DMARC failure whose From domain asks that it be refused (p=reject, RFC 7489 §6.6.2). */
export class DmarcRejectedError extends InboundRejectedError {
  constructor(readonly fromDomain: string | null) {
    super(`DMARC failed for the From domain ${fromDomain ?? '(none)'}, whose policy is reject`);
  }
}
