import type { LoadRequest } from '../harness/load-result';

export const SEND_PATH = '/v2/mails/send';
export const NAIVE_SEND_PATH = '/naive/mails/send';

/** Distinct recipients the requests rotate over. */
const RECIPIENTS = 1000;

/** A small JSON send: one recipient, a subject and a line of text. */
export function sendBody(index: number) {
  return {
    to: [`rcpt-${index % RECIPIENTS}@example.test`],
    subject: `Bench send ${index}`,
    text: `Hello from the send benchmark, mail ${index}.`,
  };
}

/**
 * The requests of a send load, in turn: each has the next sender's token (one sender
 * after another) and the next recipient. Made once, so building them costs the load
 * generator nothing while it runs.
 */
export function sendLoadRequests(path: string, tokens: string[], count = tokens.length * 25): LoadRequest[] {
  return Array.from({ length: count }, (_, index) => ({
    method: 'POST',
    path,
    headers: { authorization: `Bearer ${tokens[index % tokens.length]}`, 'content-type': 'application/json' },
    body: JSON.stringify(sendBody(index)),
  }));
}
