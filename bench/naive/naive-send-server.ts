import Fastify from 'fastify';
import nodemailer from 'nodemailer';
import { Pool } from 'pg';
import { z } from 'zod';
import { AccessTokens } from '@letterbox/auth';
import { authConfig, databaseConfig, loadConfig, portFrom } from '@letterbox/config';

/**
 * Sending as first written, served for bench/ to measure the send API against; the
 * harness starts and stops it. The request opens its own SMTP connection (a new,
 * unpooled nodemailer transport per request, as the original did), hands the mail to
 * the provider and answers only once the provider accepted it, so every request waits
 * out the provider's latency and its rate limit comes back as a failed request.
 * Plain Fastify, and nothing recorded (no Sent copy, no send row): both favour this side.
 */
const settings = {
  NAIVE_SEND_PORT: portFrom(3901),
  NAIVE_SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  NAIVE_SMTP_PORT: portFrom(1025),
  ...databaseConfig,
  ...authConfig,
};

const sendBody = z.object({
  to: z.array(z.email()).min(1).max(100),
  subject: z.string().max(998).default(''),
  text: z.string().optional(),
  html: z.string().optional(),
});

class NaiveHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function start(): Promise<void> {
  const config = loadConfig(settings);
  // The send API's pool size, so neither side has more database connections.
  const sql = new Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE, application_name: 'letterbox-bench-naive-send' });
  sql.on('error', (error) => console.error(`[db] idle connection error: ${error.message}`));
  // The read API's secret and lifetime, so its bearer tokens work here unchanged.
  const tokens = new AccessTokens(config.AUTH_TOKEN_SECRET, config.AUTH_TOKEN_TTL_SECONDS);

  const app = Fastify();
  app.get('/health', async () => ({ status: 'ok', pid: process.pid, rssBytes: process.memoryUsage.rss() }));
  app.post('/naive/mails/send', async (request) => {
    const authorization = request.headers.authorization;
    const claims = authorization?.startsWith('Bearer ') ? tokens.verify(authorization.slice(7).trim()) : undefined;
    if (!claims) throw new NaiveHttpError(401, 'a valid bearer token is required');
    const parsed = sendBody.safeParse(request.body);
    if (!parsed.success) throw new NaiveHttpError(400, parsed.error.message);
    const { rows } = await sql.query<{ email: string; display_name: string }>('SELECT email, display_name FROM users WHERE id = $1', [claims.userId]);
    if (!rows[0]) throw new NaiveHttpError(401, 'the user no longer exists');
    const transport = nodemailer.createTransport({ host: config.NAIVE_SMTP_HOST, port: config.NAIVE_SMTP_PORT, secure: false, ignoreTLS: true });
    try {
      const info = await transport.sendMail({
        from: { name: rows[0].display_name, address: rows[0].email },
        to: parsed.data.to,
        subject: parsed.data.subject,
        text: parsed.data.text,
        html: parsed.data.html,
      });
      return { messageId: info.messageId, response: info.response };
    } catch (error) {
      const smtp = error as { responseCode?: number; response?: string; message: string };
      throw new NaiveHttpError(502, `the provider refused the mail: ${smtp.response ?? smtp.message}`);
    } finally {
      transport.close();
    }
  });
  app.setErrorHandler((error, _request, reply) => {
    const status = error instanceof NaiveHttpError ? error.status : 500;
    if (status === 500) console.error(error);
    return reply.status(status).send({ status, detail: error instanceof Error ? error.message : String(error) });
  });
  await app.listen({ port: config.NAIVE_SEND_PORT, host: '127.0.0.1' });
  console.log(`naive send server listening on http://127.0.0.1:${config.NAIVE_SEND_PORT}, sending through ${config.NAIVE_SMTP_HOST}:${config.NAIVE_SMTP_PORT}`);
}

start().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
