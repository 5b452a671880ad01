import { startAppProcess, waitForOutput, type AppProcess } from './app-process';

/** Settings every test worker shares: quick stalled-job takeover and outbox sweeps, no sender limit to speak of. */
export function deliveryWorkerEnv(queuePrefix: string, smtpPort: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    QUEUE_PREFIX: queuePrefix,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    DELIVERY_LOCK_MS: '1500',
    OUTBOX_SWEEP_MS: '500',
    SENDER_RATE_PER_SECOND: '1000',
    SENDER_BURST: '1000',
    ...extra,
  };
}

/** The delivery worker as its own process, as it runs in production (apps/delivery-worker/src/main.ts). */
export async function startDeliveryWorkerProcess(env: Record<string, string>): Promise<AppProcess> {
  const worker = startAppProcess('delivery worker', 'apps/delivery-worker/src/main.ts', { env });
  await waitForOutput(worker, /delivery worker consuming/);
  // It finishes deliveries in flight when stopped: up to the provider's latency.
  return { ...worker, stop: (signal, graceMs = 20_000) => worker.stop(signal, graceMs) };
}
