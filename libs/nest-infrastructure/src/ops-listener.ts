import type { INestApplicationContext } from '@nestjs/common';
import { startOpsServer, type OpsServer } from '@letterbox/observability';
import { READINESS_CHECKS } from './readiness-checks';

/**
 * An API's listener for operators, as every worker has one (OPS_HOST:OPS_PORT, loopback by default):
 * /metrics, which says what routes are busy and so is not for the public port, and /health/live and
 * /health/ready with the app's own readiness checks.
 */
export function listenForOperators(app: INestApplicationContext, config: { OPS_HOST: string; OPS_PORT: number }): Promise<OpsServer> {
  return startOpsServer({ host: config.OPS_HOST, port: config.OPS_PORT, checks: app.get(READINESS_CHECKS) });
}
