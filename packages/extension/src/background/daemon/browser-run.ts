/**
 * Which run of the browser this is: a random id kept in chrome.storage.session, which lives as long as
 * the browser does (a worker restart keeps it, a browser restart empties it). The hello carries it, so
 * that the daemon knows the tabs of the browser's last run are gone — their ids may name other tabs now
 * — and closes the sessions the user shared in them.
 */
import type { ChromeApi } from '../../chrome-api';
import { randomInstanceId } from './pairing-state';

const RUN_KEY = 'browser.run';
const RUN_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** This run's id, made on the first call of the run; undefined when session storage fails. */
export async function browserRun(storage: ChromeApi['storage']['session']): Promise<string | undefined> {
  try {
    const stored = (await storage.get(RUN_KEY))[RUN_KEY];
    if (typeof stored === 'string' && RUN_ID.test(stored)) return stored;
    const fresh = randomInstanceId();
    await storage.set({ [RUN_KEY]: fresh });
    return fresh;
  } catch {
    return undefined;
  }
}
