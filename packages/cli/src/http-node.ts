/**
 * POST / over node:http: no agent (one request, no keep-alive to hold the process open) and a hard
 * socket deadline a little after the request's own.
 */
import { DaemonHttpError, postToDaemon } from '@bproxy/client';
import { connectError, timeoutError, type PostCommand } from './http';

export const postCommand: PostCommand = async (endpoint, body, timeoutMs) => {
  try {
    return await postToDaemon(endpoint, body, {
      agent: false,
      timeoutMs,
      onTimeout: () => timeoutError(timeoutMs),
    });
  } catch (error) {
    if (error instanceof DaemonHttpError) throw connectError(endpoint, error.code, error.message);
    throw error;
  }
};
