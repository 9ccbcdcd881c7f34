/**
 * Run as its own process (node --import tsx): starts a launch-mode driver whose profiles live under
 * argv[2], prints the browser's pid, and idles until killed. Stands in for a daemon that gets killed.
 */
import { createLinkedTransportPair, type DaemonMessage, type DriverMessage } from '@bproxy/protocol';
import { chromiumPath } from '../../../../tests/kit/chromium';
import { startCdpDriver } from '../../src/index';

const profilesDir = process.argv[2];
if (profilesDir === undefined) throw new Error('usage: driver-process.ts PROFILES_DIR');
const [driverEnd] = createLinkedTransportPair<DaemonMessage, DriverMessage>();
const driver = await startCdpDriver(
  { mode: 'launch', executablePath: chromiumPath(), profilesDir },
  driverEnd,
);
process.stdout.write(`${JSON.stringify({ browserPid: driver.browserPid })}\n`);
setInterval(() => undefined, 60_000);
