import { Agent } from 'node:https';
import { connect, type Socket } from 'node:net';

/**
 * An HTTPS agent for firebase-admin that opens plain TCP connections to a mock FCM instead
 * of TLS ones to fcm.googleapis.com. firebase-admin writes FCM's URL into every request
 * (`https://fcm.googleapis.com/v1/...`) and has no setting for another host; what it does
 * let an app choose is the agent. Everything above the socket is firebase-admin's own:
 * the request, its bearer token, its retries and how it reads FCM's answers and errors.
 */
export class MockFcmAgent extends Agent {
  private readonly target: { host: string; port: number };

  constructor(mockUrl: URL, maxSockets: number) {
    super({ keepAlive: true, maxSockets });
    if (mockUrl.protocol !== 'http:') throw new Error(`the mock FCM is reached over plain HTTP: ${mockUrl.href}`);
    this.target = { host: mockUrl.hostname, port: Number(mockUrl.port || 80) };
  }

  override createConnection(): Socket {
    return connect(this.target);
  }
}
