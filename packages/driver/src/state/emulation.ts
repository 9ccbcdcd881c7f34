/**
 * emulate, written once for both drivers on DevTools' Emulation and Network domains, sent on the tab's
 * own channel so each override holds for that tab alone and across its navigations. A driver for the
 * user's own Chrome passes `userChrome`: there only what stays inside the tab is applied — the viewport
 * (with its scale) and the color scheme — and the answer names the rest as not applied.
 */
import {
  DEVICES,
  NETWORK_CONDITIONS,
  type ActionParams,
  type DriverResult,
  type EmulateFeature,
} from '@bproxy/protocol';
import type { StateSender } from './state-commands';

type NotApplied = { feature: EmulateFeature; why: string }[];

export interface EmulationOptions {
  /** The user's own Chrome: only the viewport and the color scheme. */
  userChrome: boolean;
  /** Allows the page's origin to read the (emulated) position; absent where that is not the driver's to grant. */
  grantGeolocation?: () => Promise<void>;
}

const USER_CHROME_WHY =
  'not in your own Chrome: it would change browsing outside the session’s tabs (or the browser’s settings)';

export async function resetEmulation(s: StateSender, userChrome: boolean): Promise<DriverResult<'emulate'>> {
  await s.send('Emulation.clearDeviceMetricsOverride', {});
  await s.send('Emulation.setEmulatedMedia', { features: [] });
  if (!userChrome) {
    await s.send('Emulation.setUserAgentOverride', { userAgent: '' });
    await s.send('Emulation.setTouchEmulationEnabled', { enabled: false });
    await s.send('Emulation.clearGeolocationOverride', {});
    await s.send('Emulation.setTimezoneOverride', { timezoneId: '' });
    await s.send('Emulation.setLocaleOverride', {});
    await s.send('Network.enable', {});
    await s.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }
  return { applied: [], reset: true };
}

export async function applyEmulation(
  s: StateSender,
  params: ActionParams<'emulate'>,
  options: EmulationOptions,
): Promise<DriverResult<'emulate'>> {
  if (params.reset === true) return resetEmulation(s, options.userChrome);
  const applied: EmulateFeature[] = [];
  const notApplied: NotApplied = [];
  const skip = (feature: EmulateFeature, asked: boolean): boolean => {
    if (!asked) return true;
    if (!options.userChrome) return false;
    notApplied.push({ feature, why: USER_CHROME_WHY });
    return true;
  };
  const device = params.device === undefined ? undefined : DEVICES[params.device];
  const width = params.width ?? device?.width;
  const height = params.height ?? device?.height;
  if (width !== undefined && height !== undefined) {
    await s.send('Emulation.setDeviceMetricsOverride', {
      width,
      height,
      deviceScaleFactor: params.scale ?? device?.scale ?? 1,
      mobile: options.userChrome ? false : (params.mobile ?? device?.mobile ?? false),
    });
    applied.push('viewport');
  } else if (params.scale !== undefined || params.mobile !== undefined) {
    notApplied.push({
      feature: 'viewport',
      why: 'a scale or mobile flag needs a width and height (or a device)',
    });
  }
  const userAgent = params.userAgent ?? device?.userAgent;
  if (!skip('userAgent', userAgent !== undefined) && userAgent !== undefined) {
    await s.send('Emulation.setUserAgentOverride', { userAgent });
    applied.push('userAgent');
  }
  const touch = params.touch ?? device?.touch;
  if (!skip('touch', touch !== undefined) && touch !== undefined) {
    await s.send(
      'Emulation.setTouchEmulationEnabled',
      touch ? { enabled: true, maxTouchPoints: 5 } : { enabled: false },
    );
    applied.push('touch');
  }
  const geo = params.geolocation;
  if (!skip('geolocation', geo !== undefined) && geo !== undefined) {
    await s.send('Emulation.setGeolocationOverride', {
      latitude: geo.latitude,
      longitude: geo.longitude,
      accuracy: 10,
    });
    applied.push('geolocation');
    if (options.grantGeolocation === undefined)
      notApplied.push({
        feature: 'geolocation',
        why: 'the position is set, but this browser is not bproxy’s own: the page may still need the user’s permission to read it',
      });
    else await options.grantGeolocation();
  }
  if (!skip('timezone', params.timezone !== undefined) && params.timezone !== undefined) {
    await s.send('Emulation.setTimezoneOverride', { timezoneId: params.timezone });
    applied.push('timezone');
  }
  if (!skip('locale', params.locale !== undefined) && params.locale !== undefined) {
    await s.send('Emulation.setLocaleOverride', { locale: params.locale });
    applied.push('locale');
  }
  if (params.colorScheme !== undefined) {
    await s.send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-color-scheme', value: params.colorScheme }],
    });
    applied.push('colorScheme');
  }
  const offline = !skip('offline', params.offline !== undefined);
  const network = !skip('network', params.network !== undefined);
  if (offline || network) {
    const c = NETWORK_CONDITIONS[params.network ?? 'none'];
    await s.send('Network.enable', {});
    await s.send('Network.emulateNetworkConditions', {
      offline: params.offline ?? false,
      latency: c.latency,
      downloadThroughput: c.download,
      uploadThroughput: c.upload,
    });
    if (offline) applied.push('offline');
    if (network) applied.push('network');
  }
  const result: DriverResult<'emulate'> = { applied };
  if (notApplied.length > 0) result.notApplied = notApplied;
  return result;
}
