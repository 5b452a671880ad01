import type { AddressInfo } from 'node:net';
import { createMockFcm, startMockProvidersHttp, startMockSmtp, type FcmBehaviourPatch, type MockFcm } from '@letterbox/mock-providers';
import { openFcm, type FcmConnection } from '../fcm-connection';

/** Shared by the push tests and the notify worker's (as @letterbox/push/testing); not part of the library. */

export interface MockFcmServer {
  /** The mock's state, to configure failures and read what it accepted. */
  fcm: MockFcm;
  /** Where firebase-admin is pointed: the mock providers' HTTP server. */
  url: URL;
  /** A Firebase app of its own on the mock, as the notify worker opens one. */
  connect(maxConnections?: number): FcmConnection;
  close(): Promise<void>;
}

/** The mock providers' HTTP server, with its FCM, on a free port. */
export async function startMockFcmServer(behaviour: FcmBehaviourPatch = {}): Promise<MockFcmServer> {
  const fcm = createMockFcm({ latencyMs: 5, ...behaviour });
  const smtp = await startMockSmtp({ port: 0 });
  const http = await startMockProvidersHttp(smtp, { port: 0, mockFcm: fcm });
  const url = new URL(`http://127.0.0.1:${(http.server.address() as AddressInfo).port}`);
  return {
    fcm,
    url,
    connect: (maxConnections = 500) => openFcm({ kind: 'mock', url, projectId: 'letterbox-test', maxConnections }),
    close: async () => {
      await http.close();
      await smtp.close();
    },
  };
}
