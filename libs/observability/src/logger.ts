import pino, { type Logger } from 'pino';
import { z } from 'zod';
import { loadConfig } from '@letterbox/config';
import { currentRequestId } from './request-context';

export const logSettings = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Human-readable lines instead of JSON: for `npm start` on a terminal, never for a log pipeline. */
  LOG_PRETTY: z.enum(['true', 'false']).default('false'),
};

let root: Logger | undefined;

/**
 * The process's one pino logger: JSON lines with the app's name, and the request id of the request or job
 * whose work is logging (so a send can be followed from its request to the SMTP reply). Settings are
 * validated on first use: a bad LOG_LEVEL stops the app at start.
 */
export function rootLogger(): Logger {
  if (root) return root;
  const { LOG_LEVEL, LOG_PRETTY } = loadConfig(logSettings);
  root = pino({
    level: LOG_LEVEL,
    base: { pid: process.pid },
    // The app (named once main runs, after modules made their loggers), and the request or job being worked on,
    // unless the line or its logger names one already.
    mixin: (merge, _level, logger) => {
      const requestId = currentRequestId();
      const saysItAlready = 'requestId' in merge || (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym]?.includes('"requestId"');
      return requestId === undefined || saysItAlready ? { app: appName } : { app: appName, requestId };
    },
    transport:
      LOG_PRETTY === 'true'
        ? { target: 'pino-pretty', options: { colorize: true, singleLine: true, ignore: 'pid,hostname,app', translateTime: 'SYS:HH:MM:ss.l' } }
        : undefined,
  });
  return root;
}

let appName = 'letterbox';

/** Names the process in every log line and metric; called first thing in each app's main. */
export function nameProcess(name: string): void {
  appName = name;
}

export function processName(): string {
  return appName;
}

/** A logger for one part of the app: its lines say `component`. */
export function loggerFor(component: string): Logger {
  return rootLogger().child({ component });
}
