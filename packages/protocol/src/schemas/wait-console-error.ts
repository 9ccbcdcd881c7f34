/** `wait --console-error`: the part of wait's params and result that waits for a console error. */
import { z } from 'zod';

/** Until the tab logs an error or throws uncaught (since the start of its latest action). */
export const ConsoleErrorWaitShape = { consoleError: z.boolean().optional() };

/** The error line that ended the wait. */
export const ConsoleErrorWaitResultShape = { consoleError: z.string().max(2000).optional() };
