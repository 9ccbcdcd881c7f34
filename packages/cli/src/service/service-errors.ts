/** Service commands report lifecycle failures as plain sentences (ServiceError), whatever threw them. */
import { isLifecycleError } from '@bproxy/client/lifecycle';
import { ServiceError } from '../cli-error';

export async function asServiceError<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (isLifecycleError(error)) throw new ServiceError(error.message);
    throw error;
  }
}
