import { randomUUID } from 'node:crypto';
import { Agent } from 'node:https';
import { cert, deleteApp, initializeApp, type Credential } from 'firebase-admin/app';
import { getMessaging, type Messaging } from 'firebase-admin/messaging';
import { MockFcmAgent } from './mock-fcm-agent';

/** Where FCM is: Google's, signed in with a service account, or a mock reached with a fixed access token. */
export type FcmTarget =
  | { kind: 'google'; serviceAccountFile: string; projectId?: string; maxConnections: number }
  | { kind: 'mock'; url: URL; projectId: string; maxConnections: number };

export interface FcmConnection {
  messaging: Messaging;
  /** Deletes the Firebase app and closes its connections. */
  close(): Promise<void>;
}

/** What the mock FCM is given as the access token; it checks one is sent, never which. */
const MOCK_ACCESS_TOKEN = 'letterbox-mock-fcm';

const mockCredential: Credential = {
  getAccessToken: async () => ({ access_token: MOCK_ACCESS_TOKEN, expires_in: 3600 }),
};

/**
 * One Firebase app and its pool of connections, for a process to share: every send reuses
 * the app's access token and the pool's open connections.
 *
 * Transport: HTTP/1.1 (`enableLegacyHttpTransport`), not firebase-admin's default HTTP/2,
 * for Google's FCM as for the mock:
 * - the HTTP/2 path calls `http2.connect('https://fcm.googleapis.com')` with no agent and no
 *   host setting, so it cannot reach a mock, and the tests must run the path production runs;
 * - it opens a new HTTP/2 session (a TLS handshake) for every `sendEach` call and closes it
 *   after, capped at 100 streams, and under load FCM ends such sessions with GOAWAY
 *   (firebase-admin-node #2943); the HTTP/1.1 path goes through the app's `httpAgent`, one
 *   keep-alive pool that every call reuses, as wide as `maxConnections`.
 */
export function openFcm(target: FcmTarget): FcmConnection {
  const agent =
    target.kind === 'mock' ? new MockFcmAgent(target.url, target.maxConnections) : new Agent({ keepAlive: true, maxSockets: target.maxConnections });
  const app = initializeApp(
    {
      credential: target.kind === 'mock' ? mockCredential : cert(target.serviceAccountFile),
      projectId: target.projectId,
      httpAgent: agent,
    },
    // A name of its own: several connections may live in one process (tests, benchmarks).
    `letterbox-push-${randomUUID()}`,
  );
  const messaging = getMessaging(app);
  messaging.enableLegacyHttpTransport();
  return {
    messaging,
    async close() {
      await deleteApp(app);
      agent.destroy();
    },
  };
}
