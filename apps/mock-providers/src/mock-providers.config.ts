import { z } from 'zod';
import { databaseConfig, loadConfig, pemFileSetting, portFrom } from '@letterbox/config';
import { DEFAULT_FCM_BEHAVIOUR, DEFAULT_SMTP_BEHAVIOUR, fcmBehaviourSchema, smtpBehaviourSchema } from '@letterbox/mock-providers';

const behaviour = smtpBehaviourSchema.shape;
const fcm = fcmBehaviourSchema.shape;

/** A number from the environment, held to the same bounds as when set through the control API. */
const setting = (schema: z.ZodNumber, fallback: number) => z.coerce.number().pipe(schema).default(fallback);

export const mockProvidersSettings = {
  MOCK_SMTP_PORT: portFrom(1025),
  MOCK_PROVIDERS_HTTP_PORT: portFrom(3005),
  /** The mock DNS (UDP and TCP), which `npm start` points the apps' DNS_SERVERS at. */
  MOCK_DNS_PORT: portFrom(5354),
  /** Where the mock DNS reads the DKIM keys of Letterbox's own domains, to serve them as their administrator would publish them. */
  DATABASE_URL: databaseConfig.DATABASE_URL,
  MOCK_PROVIDERS_HOST: z.string().min(1).default('127.0.0.1'),
  MOCK_SMTP_LATENCY_MS: setting(behaviour.latencyMs, DEFAULT_SMTP_BEHAVIOUR.latencyMs),
  MOCK_SMTP_RATE_PER_SECOND: setting(behaviour.ratePerSecond, DEFAULT_SMTP_BEHAVIOUR.ratePerSecond),
  MOCK_SMTP_BURST: setting(behaviour.burst, DEFAULT_SMTP_BEHAVIOUR.burst),
  MOCK_SMTP_TEMP_FAIL_RATE: setting(behaviour.tempFailRate, DEFAULT_SMTP_BEHAVIOUR.tempFailRate),
  MOCK_SMTP_PERM_FAIL_RATE: setting(behaviour.permFailRate, DEFAULT_SMTP_BEHAVIOUR.permFailRate),
  MOCK_SMTP_DROP_RATE: setting(behaviour.dropRate, DEFAULT_SMTP_BEHAVIOUR.dropRate),
  MOCK_SMTP_MAX_MESSAGE_BYTES: setting(behaviour.maxMessageBytes, DEFAULT_SMTP_BEHAVIOUR.maxMessageBytes),
  /** What the mock SMTP's STARTTLS presents (PEM files, both or neither); unset: a self-signed certificate made at start. */
  MOCK_SMTP_TLS_CERT: pemFileSetting('certificate'),
  MOCK_SMTP_TLS_KEY: pemFileSetting('private key'),
  /** Letterbox's SMTP intake (the ingest app's INGEST_SMTP_PORT), where mail to `@bounce.example` is bounced back to its sender. */
  MOCK_SMTP_BOUNCE_HOST: z.string().min(1).default('127.0.0.1'),
  MOCK_SMTP_BOUNCE_PORT: portFrom(2525),
  MOCK_FCM_LATENCY_MS: setting(fcm.latencyMs, DEFAULT_FCM_BEHAVIOUR.latencyMs),
  MOCK_FCM_UNAVAILABLE_RATE: setting(fcm.unavailableRate, DEFAULT_FCM_BEHAVIOUR.unavailableRate),
  MOCK_FCM_QUOTA_EXCEEDED_RATE: setting(fcm.quotaExceededRate, DEFAULT_FCM_BEHAVIOUR.quotaExceededRate),
  MOCK_FCM_INTERNAL_RATE: setting(fcm.internalRate, DEFAULT_FCM_BEHAVIOUR.internalRate),
};

export type MockProvidersConfig = ReturnType<typeof loadMockProvidersConfig>;

export function loadMockProvidersConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(mockProvidersSettings, env);
}
