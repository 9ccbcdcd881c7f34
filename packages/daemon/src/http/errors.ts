/**
 * What the app answers when no route did: Fastify's own failures (a body it could not read, too large,
 * of another type) mapped to the catalogue's codes, anything else an INTERNAL_ERROR that is logged, and
 * ROUTE_NOT_FOUND. /pair/claim has its own error handler (pair.ts): its failures feed the throttle.
 */
import { makeError } from '@bproxy/protocol';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from '../logs/logger';
import { errorResponse } from './responses';

type Mapped = {
  status: number;
  code: 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' | 'BAD_REQUEST' | 'INTERNAL_ERROR';
  message: string;
};

export function mapFastifyError(err: FastifyError): Mapped {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the body exceeds the size limit' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the body as application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'BAD_REQUEST', message: 'the body is empty' };
    default:
      if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
        return { status: 400, code: 'BAD_REQUEST', message: 'the body is not valid JSON' };
      }
      return {
        status: 500,
        code: 'INTERNAL_ERROR',
        message: 'the daemon failed on this request; it keeps serving',
      };
  }
}

export interface ErrorHandlingOptions {
  logger: Logger;
  /** A command (POST /) whose body Fastify refused: traced like the bodies the command route refuses. */
  onCommandRefused(response: ReturnType<typeof errorResponse>): void;
}

const pathOf = (req: FastifyRequest) => req.url.split('?')[0];

export function registerErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const mapped = mapFastifyError(err);
    if (mapped.status >= 500) options.logger.error({ event: 'internal_error', url: req.url, err: err.stack });
    const response = errorResponse(null, makeError(mapped.code, mapped.message));
    // So that debug.last shows every refusal past the gate.
    if (req.method === 'POST' && pathOf(req) === '/') options.onCommandRefused(response);
    return reply.code(mapped.status).send(response);
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .code(404)
      .send(errorResponse(null, makeError('ROUTE_NOT_FOUND', `no route ${req.method} ${pathOf(req)}`))),
  );
}
