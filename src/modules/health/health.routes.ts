import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError, STORAGE_RETRY_AFTER_SECONDS } from '../../http/errors.js';
import { Envelope, errorResponses } from '../../http/schemas.js';

const Health = Envelope(Type.Object({ status: Type.Literal('ok') }));

export const healthRoutes: FastifyPluginAsyncTypebox<AppContext> = (app, { store }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'The process is up',
        response: { 200: Health },
      },
    },
    () => ({ success: true as const, data: { status: 'ok' as const } }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'The database answers',
        description:
          'For load balancers: 503 `storage_unavailable` while the database does not answer.',
        response: { 200: Health, ...errorResponses() },
      },
    },
    async () => {
      if (!(await store.ping())) {
        throw new AppError('storage_unavailable', 'The database does not answer.', {
          headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
        });
      }
      return { success: true as const, data: { status: 'ok' as const } };
    },
  );
  return Promise.resolve();
};
