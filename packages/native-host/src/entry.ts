/**
 * The entry of dist/native-host.mjs, the program the launcher `bproxy host install` writes runs with
 * the Node recorded at install time. The daemon it starts on demand is the bundle beside it.
 */
import { fileURLToPath } from 'node:url';
import { hostMain } from './main';

void hostMain({ daemonScript: fileURLToPath(new URL('./daemon.mjs', import.meta.url)) });
