import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { publicBaseUrl } from '../../http/base-url.js';
import { clientOf } from '../../http/client-address.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import {
  Deleted,
  NewRequestBody,
  Receipt,
  RequestParams,
  StoredRequest,
} from './requests.schemas.js';
import { createRequest, deleteOwnRequest, readRequest } from './requests.service.js';

export const requestsRoutes: FastifyPluginAsyncTypebox<AppContext> = async (
  app,
  { store, config, addressSecret },
) => {
  const tags = ['requests'];
  const security = [{ receiptToken: [] }];

  app.post(
    '/api/requests',
    {
      schema: {
        tags,
        operationId: 'fileRequest',
        summary: 'File a request for a capability, a correction or a pilot',
        description:
          'Returns a private receipt: keep the `token`, it is shown only once and is the only way to read or delete the request. ' +
          'Do not put credentials or confidential data in the request; text that looks like a key or token is refused (`contains_secret`). ' +
          'Daily limits apply per client address and for the whole service (429 until midnight UTC).',
        body: NewRequestBody,
        response: {
          201: Envelope(
            Receipt,
            'The request is stored; the receipt carries its private token, shown only now.',
          ),
          ...errorResponses(
            'validation_error',
            'invalid_json',
            'contains_secret',
            'daily_limit_reached',
          ),
        },
      },
    },
    async (request, reply) => {
      const receipt = await createRequest(store, config, request.body, {
        address: clientOf(request.ip),
        addressSecret,
        baseUrl: publicBaseUrl(request, config),
      });
      return reply
        .code(201)
        .header('location', receipt.status_url)
        .send({ success: true, data: receipt });
    },
  );

  app.get(
    '/api/requests/:id',
    {
      schema: {
        tags,
        security,
        operationId: 'getRequest',
        summary: 'Read a request and its answer',
        description:
          'Needs the receipt token as `Authorization: Bearer rq_…`. A missing or wrong token and an unknown or deleted request all answer the same 404.',
        params: RequestParams,
        response: {
          200: Envelope(StoredRequest, 'The request, its status and the operators’ answer.'),
          ...errorResponses('validation_error', 'not_found'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await readRequest(store, request.params.id, request.headers.authorization),
    }),
  );

  app.delete(
    '/api/requests/:id',
    {
      schema: {
        tags,
        security,
        operationId: 'deleteRequest',
        summary: 'Delete a request for good',
        description: 'Needs the receipt token. The request is removed, not hidden.',
        params: RequestParams,
        response: {
          200: Envelope(Deleted, 'The request is deleted for good.'),
          ...errorResponses('validation_error', 'invalid_json', 'not_found'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await deleteOwnRequest(store, request.params.id, request.headers.authorization),
    }),
  );
};
