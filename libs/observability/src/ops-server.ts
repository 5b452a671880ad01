import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loggerFor } from './logger';
import { metricsText } from './metrics';
import { readiness, type DependencyCheck } from './readiness';

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A queue worker's small HTTP listener for what operators and orchestrators ask: /health/live (the process
 * answers), /health/ready (its dependencies answer) and /metrics (Prometheus). Nothing else.
 */
export async function startOpsServer(options: { host: string; port: number; checks: Record<string, DependencyCheck> }): Promise<OpsServer> {
  const logger = loggerFor('ops');
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const answer = (status: number, contentType: string, body: string) =>
      response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
    const json = (status: number, body: object) => answer(status, 'application/json; charset=utf-8', JSON.stringify(body));
    if (request.method !== 'GET' && request.method !== 'HEAD') return json(405, { status: 405, detail: 'only GET' });
    if (path === '/health/live') return json(200, { status: 'ok' });
    if (path === '/health/ready') {
      void readiness(options.checks).then((report) => json(report.status === 'ok' ? 200 : 503, report));
      return;
    }
    if (path === '/metrics') {
      void metricsText().then(
        ({ contentType, body }) => answer(200, contentType, body),
        (error: unknown) => {
          logger.error({ err: error }, 'metrics could not be collected');
          json(500, { status: 500, detail: 'metrics could not be collected' });
        },
      );
      return;
    }
    json(404, { status: 404, detail: 'only /health/live, /health/ready and /metrics here' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
