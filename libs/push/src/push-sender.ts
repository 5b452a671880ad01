import type { BatchResponse, Messaging } from 'firebase-admin/messaging';
import { classifyPushFailure, type PushError } from './push-failure';

/** The most tokens FCM's multicast takes in one call. */
export const FCM_MULTICAST_LIMIT = 500;

export interface PushNotification {
  title: string;
  body: string;
  /** Handed to the app with the notification; FCM takes string values only. */
  data: Record<string, string>;
  /**
   * A device shows one notification per collapse id, the latest replacing the one before: a
   * notification pushed again (its worker died before recording that FCM took it) is not shown twice.
   */
  collapseId: string;
}

export interface RefusedToken {
  token: string;
  code: string;
  message: string;
}

/** Where each token of a send ended: every token is in exactly one of these. */
export interface PushReport {
  /** Tokens FCM accepted the message for. */
  delivered: number;
  /** Tokens FCM no longer delivers to: to be removed. */
  dead: string[];
  /** Tokens that failed for now: worth another try, later. */
  transient: RefusedToken[];
  /** Tokens refused for a reason no retry changes, the token itself being fine. */
  permanent: RefusedToken[];
}

/**
 * Sends one notification to many devices through firebase-admin: the tokens in chunks of
 * FCM's multicast limit, every chunk at once, each token's outcome sorted by what FCM said.
 */
export class PushSender {
  constructor(
    private readonly messaging: Messaging,
    private readonly chunkSize = FCM_MULTICAST_LIMIT,
  ) {}

  async send(tokens: string[], notification: PushNotification): Promise<PushReport> {
    const chunks = chunksOf([...new Set(tokens)], this.chunkSize);
    const settled = await Promise.allSettled(
      chunks.map((chunk) =>
        this.messaging.sendEachForMulticast({
          tokens: chunk,
          notification: { title: notification.title, body: notification.body },
          data: notification.data,
          android: { collapseKey: notification.collapseId, notification: { tag: notification.collapseId } },
          apns: { headers: { 'apns-collapse-id': notification.collapseId } },
          webpush: { notification: { tag: notification.collapseId } },
        }),
      ),
    );
    const report: PushReport = { delivered: 0, dead: [], transient: [], permanent: [] };
    settled.forEach((outcome, index) => {
      // A whole call fails only when nothing of it was sent (the project id or the credential missing, say).
      if (outcome.status === 'rejected') for (const token of chunks[index]) sortFailure(report, token, outcome.reason as PushError);
      else addBatch(report, chunks[index], outcome.value);
    });
    return report;
  }
}

/** A BatchResponse lists its responses in the order of the tokens. */
function addBatch(report: PushReport, tokens: string[], batch: BatchResponse): void {
  batch.responses.forEach((response, index) => {
    if (response.success) report.delivered += 1;
    else sortFailure(report, tokens[index], response.error ?? { message: 'FCM gave no reason' });
  });
}

function sortFailure(report: PushReport, token: string, error: PushError): void {
  const kind = classifyPushFailure(error);
  if (kind === 'dead') report.dead.push(token);
  else report[kind].push({ token, code: error.code ?? 'unknown', message: error.message });
}

function chunksOf<Item>(items: Item[], size: number): Item[][] {
  const chunks: Item[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
