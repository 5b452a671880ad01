import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Controller, Get, Module, Post } from '@nestjs/common';
import { z } from 'zod';
import { documentedResponse, type DirectRoute } from './direct-routes';
import { ApiZodResponse } from './openapi-zod';
import { previewOpenApiDocument } from './openapi-document';

const part = z.object({ name: z.string() }).meta({ id: 'TestPart' });
const whole = z.object({ parts: z.array(part), note: z.string().nullable() }).meta({ id: 'TestWhole' });
z.object({ unused: z.boolean() }).meta({ id: 'TestUnused' });

@Controller('wholes')
class WholesController {
  @Get()
  @ApiZodResponse(200, whole, { serialize: true })
  list() {
    return { parts: [], note: null };
  }
}

@Module({ controllers: [WholesController] })
class WholesModule {}

@Controller('wholes')
class PostWholesController {
  @Post()
  add() {
    return undefined;
  }
}

@Module({ controllers: [PostWholesController] })
class PostWholesModule {}

test('a response names its component, which names the components it holds; no other component is in the document', async () => {
  const document = await previewOpenApiDocument(WholesModule, { title: 'test', description: 'test' });
  assert.deepEqual(document.paths['/wholes'].get?.responses['200'], {
    description: '',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/TestWhole' } } },
  });
  assert.deepEqual(Object.keys(document.components?.schemas ?? {}), ['TestPart', 'TestWhole']);
  assert.deepEqual(document.components?.schemas?.TestWhole, {
    type: 'object',
    properties: { parts: { type: 'array', items: { $ref: '#/components/schemas/TestPart' } }, note: { type: 'string', nullable: true } },
    required: ['parts', 'note'],
    additionalProperties: false,
  });
});

test('a schema without an id cannot be a response', () => {
  assert.throws(() => ApiZodResponse(200, z.object({})), /needs an id/);
});

test("a direct route is in the document beside the path's Nest routes, and the components it names are too", async () => {
  const direct: DirectRoute = {
    method: 'GET',
    url: '/wholes',
    operation: { operationId: 'wholesDirect', responses: { 200: documentedResponse(whole) } },
    handler: () => async () => ({}),
  };
  const document = await previewOpenApiDocument(PostWholesModule, { title: 'test', description: 'test', directRoutes: [direct] });
  assert.deepEqual(Object.keys(document.paths['/wholes']), ['get', 'post']);
  assert.equal(document.paths['/wholes'].get?.operationId, 'wholesDirect');
  assert.deepEqual(Object.keys(document.components?.schemas ?? {}), ['TestPart', 'TestWhole']);
});
