import { readFileSync } from 'node:fs';
import { Pool } from 'pg';
import { publishedDkimSource } from '@letterbox/dkim';
import { createMockFcm, MOCK_DNS_ZONES, startMockDns, startMockProvidersHttp, startMockSmtp, zoneTable } from '@letterbox/mock-providers';
import { exitOnStartupFailure, loggerFor, nameProcess } from '@letterbox/observability';
import { loadMockProvidersConfig } from './mock-providers.config';

nameProcess('mock-providers');

async function start(): Promise<void> {
  const config = loadMockProvidersConfig();
  const host = config.MOCK_PROVIDERS_HOST;
  const smtp = await startMockSmtp({
    port: config.MOCK_SMTP_PORT,
    host,
    latencyMs: config.MOCK_SMTP_LATENCY_MS,
    ratePerSecond: config.MOCK_SMTP_RATE_PER_SECOND,
    burst: config.MOCK_SMTP_BURST,
    tempFailRate: config.MOCK_SMTP_TEMP_FAIL_RATE,
    permFailRate: config.MOCK_SMTP_PERM_FAIL_RATE,
    dropRate: config.MOCK_SMTP_DROP_RATE,
    maxMessageBytes: config.MOCK_SMTP_MAX_MESSAGE_BYTES,
    bounceIntake: { host: config.MOCK_SMTP_BOUNCE_HOST, port: config.MOCK_SMTP_BOUNCE_PORT },
    tls:
      config.MOCK_SMTP_TLS_CERT && config.MOCK_SMTP_TLS_KEY
        ? { cert: readFileSync(config.MOCK_SMTP_TLS_CERT, 'utf8'), key: readFileSync(config.MOCK_SMTP_TLS_KEY, 'utf8') }
        : undefined,
  });
  const mockFcm = createMockFcm({
    latencyMs: config.MOCK_FCM_LATENCY_MS,
    unavailableRate: config.MOCK_FCM_UNAVAILABLE_RATE,
    quotaExceededRate: config.MOCK_FCM_QUOTA_EXCEEDED_RATE,
    internalRate: config.MOCK_FCM_INTERNAL_RATE,
  });
  const http = await startMockProvidersHttp(smtp, { port: config.MOCK_PROVIDERS_HTTP_PORT, host, mockFcm });
  const sql = new Pool({ connectionString: config.DATABASE_URL, max: 2, application_name: 'letterbox-mock-dns' });
  sql.on('error', (error) => loggerFor('mock-dns').warn({ err: error }, 'an idle database connection failed'));
  const dns = await startMockDns({ port: config.MOCK_DNS_PORT, host, zones: [publishedDkimSource(sql), zoneTable(MOCK_DNS_ZONES)] });
  const base = `http://${host}:${config.MOCK_PROVIDERS_HTTP_PORT}`;
  loggerFor('process').info(`mock providers: SMTP on ${host}:${smtp.port}, FCM and the control API on ${base}, DNS on ${host}:${dns.port}`);
  const stop = () => void Promise.all([http.close(), smtp.close(), dns.close(), sql.end()]);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

start().catch((error: unknown) => exitOnStartupFailure('mock providers', error));
