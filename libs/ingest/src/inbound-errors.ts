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
