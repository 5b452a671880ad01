import type { EventEmitter } from 'node:events';
import { loggerFor } from './logger';
import { oncePerInterval } from './once-per-interval';

const REPORT_INTERVAL_MS = 30_000;
const logger = loggerFor('connections');

/**
 * Logs a connection's errors, once per interval: an outage repeats its error on every reconnect attempt,
 * and a line each would drown what else is said. `name` says which connection it is.
 */
export function reportConnectionErrors(connection: EventEmitter, name: string): void {
  const mayReport = oncePerInterval(REPORT_INTERVAL_MS);
  connection.on('error', (error: Error) => {
    if (mayReport()) logger.warn({ err: error, connection: name }, `${name}: connection failed (repeats are not logged for 30 s)`);
  });
}
