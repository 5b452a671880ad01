import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { answerCrossOrigin } from './cross-origin-answers';
import { compressAnswers } from './compressed-answers';

const WEBMAIL = 'https://mail.example.com';

describe('CORS for the configured origins', () => {
  let fastify: FastifyInstance;

  before(async () => {
    fastify = Fastify();
    compressAnswers(fastify);
    answerCrossOrigin(fastify, { origins: [WEBMAIL], exposedHeaders: ['Location', 'ETag'], refusedPaths: /^\/admin(\/|$)/ });
    fastify.get('/v2/things', () => ({ things: 'x'.repeat(2000) }));
    fastify.get('/admin/queues', () => ({ ok: true }));
    await fastify.ready();
  });

  after(() => fastify.close());

  test('an allowed origin is echoed with the headers it may read; another is not, and every answer varies by Origin', async () => {
    const allowed = await fastify.inject({ url: '/v2/things', headers: { origin: WEBMAIL, 'accept-encoding': 'gzip' } });
    assert.equal(allowed.statusCode, 200);
    assert.equal(allowed.headers['access-control-allow-origin'], WEBMAIL);
    assert.equal(allowed.headers['access-control-expose-headers'], 'Location, ETag');
    assert.equal(allowed.headers['access-control-allow-credentials'], undefined, 'bearer tokens, never cookies');
    assert.equal(allowed.headers.vary, 'Origin, Accept-Encoding', 'the compressed answer varies by both');
    assert.equal(allowed.headers['content-encoding'], 'gzip');
    const other = await fastify.inject({ url: '/v2/things', headers: { origin: 'https://evil.example' } });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    assert.match(String(other.headers.vary), /^Origin\b/);
  });

  test('a preflight is answered 204 with every method the API takes and the headers asked for', async () => {
    const answer = await fastify.inject({
      method: 'OPTIONS',
      url: '/v2/mails/12?x=1',
      headers: { origin: WEBMAIL, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(answer.statusCode, 204);
    assert.equal(answer.headers['content-length'], '0');
    assert.equal(answer.headers['access-control-allow-origin'], WEBMAIL);
    assert.equal(answer.headers['access-control-allow-methods'], 'GET, HEAD, POST, PUT, PATCH, DELETE');
    assert.equal(answer.headers['access-control-allow-headers'], 'authorization, content-type');
    assert.equal(answer.headers.vary, 'Origin, Access-Control-Request-Headers');
  });

  test('a preflight without its headers is a 400 problem naming the one missing; a refused path has no preflight', async () => {
    const noMethod = await fastify.inject({ method: 'OPTIONS', url: '/v2/things', headers: { origin: WEBMAIL } });
    assert.equal(noMethod.statusCode, 400);
    assert.match(String(noMethod.headers['content-type']), /^application\/problem\+json/);
    assert.deepEqual(noMethod.json().errors, [{ field: 'Access-Control-Request-Method', message: 'missing' }]);
    const noOrigin = await fastify.inject({ method: 'OPTIONS', url: '/v2/things', headers: { 'access-control-request-method': 'GET' } });
    assert.equal(noOrigin.statusCode, 400);
    assert.deepEqual(noOrigin.json().errors, [{ field: 'Origin', message: 'missing' }]);
    const admin = await fastify.inject({ method: 'OPTIONS', url: '/admin/queues', headers: { origin: WEBMAIL, 'access-control-request-method': 'GET' } });
    assert.equal(admin.statusCode, 404);
    assert.equal(admin.headers['access-control-allow-origin'], undefined);
    assert.equal(admin.json().detail, 'no route answers OPTIONS /admin/queues');
    const read = await fastify.inject({ url: '/admin/queues', headers: { origin: WEBMAIL } });
    assert.equal(read.headers['access-control-allow-origin'], undefined);
    assert.equal(read.headers['access-control-expose-headers'], undefined);
  });
});
