import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { PING_TIMEOUT_MS } from '../../db/database.js';
import { AppError, STORAGE_RETRY_AFTER_SECONDS } from '../../http/errors.js';
import { Envelope, errorResponses } from '../../http/schemas.js';

const Health = (description: string) =>
  Envelope(Type.Object({ status: Type.Literal('ok') }), description);

export const healthRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, { store }) => {
  app.get(
    '/healthz',
    {
      // Its answers are a few dozen bytes, under COMPRESSION_THRESHOLD_BYTES: no compression hooks.
      compress: false,
      schema: {
        tags: ['operations'],
        operationId: 'getHealth',
        summary: 'The process is up',
        description:
          'For liveness checks: answers while the process runs, without touching the database.',
        response: { 200: Health('The process is up.') },
      },
    },
    () => ({ success: true as const, data: { status: 'ok' as const } }),
  );

  app.get(
    '/readyz',
    {
      compress: false,
      schema: {
        tags: ['operations'],
        operationId: 'getReadiness',
        summary: 'The database answers',
        description: `For load balancers: 503 \`storage_unavailable\` while the database does not answer (within ${PING_TIMEOUT_MS / 1000} s).`,
        response: { 200: Health('The database answers.'), ...errorResponses() },
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
};
