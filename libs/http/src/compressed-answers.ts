import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** JSON and text answers: a list page goes from 447 to 35 KB. Mail, attachments and event streams pass as they are. */
const COMPRESSED_TYPES = /^(application\/(problem\+)?json|text\/(plain|html|csv))\b/;
/** Below this, compressing saves less than it costs. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const deflate = promisify(gzip);

/**
 * The app's JSON and text answers, compressed as the client accepts them: Brotli at a quality that costs about what gzip
 * does, else gzip; a client that sends no Accept-Encoding (or accepts neither) gets them as they are. Streamed answers
 * (raw mail, attachments, event streams) are never touched: their bytes are the mail's own, and a stream must flow.
 */
export function compressAnswers(fastify: FastifyInstance): void {
  // A callback hook, not an async one: most answers (a 304, a small JSON) pass untouched without a promise each.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    const encoding = compressibleAs(request.headers['accept-encoding'], reply, payload);
    if (!encoding) return done(null, payload);
    const compressed =
      encoding === 'br'
        ? brotli(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(payload) } })
        : deflate(payload, { level: 6 });
    compressed.then((body) => {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, body);
    }, done);
  });
}

/** The encoding a whole answer is to be sent in, if any; a JSON or text answer large enough varies by Accept-Encoding. */
function compressibleAs(acceptEncoding: string | string[] | undefined, reply: FastifyReply, payload: string | Buffer): 'br' | 'gzip' | undefined {
  if (reply.hasHeader('content-encoding') || !COMPRESSED_TYPES.test(String(reply.getHeader('content-type') ?? ''))) return undefined;
  if (Buffer.byteLength(payload) < MIN_BYTES) return undefined;
  addVary(reply);
  return acceptedEncoding(acceptEncoding);
}

/** Brotli, else gzip, as the client's Accept-Encoding allows them (a `q=0` refuses one). */
export function acceptedEncoding(header: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    const quality = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
    if (name) accepted.set(name, quality === undefined ? 1 : Number(quality));
  }
  const allows = (encoding: string) => (accepted.get(encoding) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return undefined;
}

function addVary(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}
