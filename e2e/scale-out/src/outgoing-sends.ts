import { randomUUID } from 'node:crypto';
import type { HttpApp } from './platform';

export interface Sender {
  email: string;
  token: string;
}

export interface SubmittedSend {
  id: number;
  sender: string;
  to: string;
}

export interface SendTally {
  submitted: SubmittedSend[];
  /** Requests that failed and were made again, with the same Idempotency-Key, on the other send API. */
  retried: number;
}

/**
 * `perSender` sends from each sender, each to a recipient of its own, submitted
 * `concurrency` at a time over the two send APIs in turn. A request that fails (the API
 * died under it) is made again on the other API with the same Idempotency-Key, so a send
 * the dead API had recorded is answered, not recorded twice. Calls `progress` after each.
 */
export async function submitSends(
  sendApis: HttpApp[],
  senders: Sender[],
  perSender: number,
  concurrency: number,
  progress: (submitted: number) => void,
): Promise<SendTally> {
  const run = randomUUID().slice(0, 8);
  const planned = Array.from({ length: perSender }, (_, round) =>
    senders.map((sender, index) => ({ sender, to: `r${round}.s${index}.${run}@outside.test`, key: randomUUID() })),
  ).flat();
  const tally: SendTally = { submitted: [], retried: 0 };
  let next = 0;
  const lane = async () => {
    while (next < planned.length) {
      const index = next++;
      const { sender, to, key } = planned[index];
      for (let attempt = 0; ; attempt++) {
        const api = sendApis[(index + attempt) % sendApis.length];
        const id = await submit(api, sender, to, key);
        if (id !== undefined) {
          tally.submitted.push({ id, sender: sender.email, to });
          break;
        }
        tally.retried++;
        if (attempt > 50) throw new Error(`no send API took the send to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      progress(tally.submitted.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return tally;
}

/** The send's id, or undefined when the API could not answer; any other answer fails the test. */
async function submit(api: HttpApp, sender: Sender, to: string, key: string): Promise<number | undefined> {
  let response: Response;
  try {
    response = await fetch(`${api.url}/v2/mails/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sender.token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ to: [to], subject: `to ${to}`, text: 'Sent while the platform runs as many processes.' }),
    });
  } catch {
    return undefined;
  }
  const body = await response.text().catch(() => '');
  if (response.status === 202 || response.status === 200) return (JSON.parse(body) as { id: number }).id;
  if (response.status >= 500) return undefined;
  throw new Error(`POST /v2/mails/send as ${sender.email}: ${response.status} ${body}`);
}
