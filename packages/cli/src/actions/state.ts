/**
 * Logins that persist and emulation: `state save|load FILE`, `cookies list|set|clear` for the current
 * page's origin, and `emulate` for the session's tab.
 */
import { DEVICE_NAMES } from '@bproxy/protocol/plain';
import { usageError } from '../cli-error';
import { compact } from '../parsers';
import { choice, defineAction, flag, int, optional, required, text, type ActionGroup } from './grammar';

const FILE_HELP =
  'a plain name is kept in BPROXY_HOME/state; an absolute path must be in the session folder or an allowed folder (files.json, service start --allow-files)';

export const stateSave = defineAction({
  action: 'state.save',
  path: ['state', 'save'],
  args: [required('file')],
  options: {},
  call: ([file]) => ({ action: 'state.save', params: { path: file } }),
  help: () => ({
    description:
      "save the browser's cookies and this origin's localStorage, in Playwright's storage-state format (0600)",
    args: { file: FILE_HELP },
    options: {},
    examples: ['bproxy -s m4q7z2 state save shop-login.json'],
    after:
      '\nIn your own Chrome (the extension) saving exports your real cookies: it is refused (STATE_NOT_ALLOWED)\nunless you allowed it in BPROXY_HOME/user-chrome.json ({"cookies": true}, mode 0600).\n',
    reference: [
      {
        usage: '`bproxy -s ID state save\\|load FILE`',
        does: "cookies and localStorage to or from a file (Playwright's format)",
      },
    ],
  }),
});

export const stateLoad = defineAction({
  action: 'state.load',
  path: ['state', 'load'],
  args: [required('file')],
  options: {},
  call: ([file]) => ({ action: 'state.load', params: { path: file } }),
  help: () => ({
    description:
      'load cookies and localStorage from a state file (in your own Chrome, never over a cookie you have)',
    args: { file: FILE_HELP },
    options: {},
    examples: ['bproxy -s m4q7z2 state load shop-login.json'],
  }),
});

export const STATE: ActionGroup = {
  name: 'state',
  commands: [stateSave, stateLoad],
  help: () => ({
    description: "save and load a session's logins: cookies and localStorage, in Playwright's format",
    examples: ['bproxy -s m4q7z2 state save login.json', 'bproxy -s m4q7z2 state load login.json'],
  }),
};

export const cookiesList = defineAction({
  action: 'cookies.list',
  path: ['cookies', 'list'],
  args: [],
  options: {},
  call: () => ({ action: 'cookies.list', params: {} }),
  help: () => ({
    description: "list the current page's cookies (your own Chrome: only if you allowed it)",
    args: {},
    options: {},
    examples: ['bproxy -s m4q7z2 cookies list'],
    reference: [
      {
        usage: '`bproxy -s ID cookies list\\|set NAME VALUE\\|clear [NAME]`',
        does: "the current page's cookies",
      },
    ],
  }),
});

export const cookiesSet = defineAction({
  action: 'cookies.set',
  path: ['cookies', 'set'],
  args: [required('name'), required('value')],
  options: {
    path: text('--path <path>'),
    expires: int('--expires <seconds>', 1, 253402300799),
    httpOnly: flag('--http-only'),
    secure: flag('--secure'),
    sameSite: choice('--same-site <mode>', ['Strict', 'Lax', 'None']),
  },
  call: ([name, value], o) => ({
    action: 'cookies.set',
    params: compact({
      name,
      value,
      path: o.path,
      expires: o.expires,
      httpOnly: o.httpOnly,
      secure: o.secure,
      sameSite: o.sameSite,
    }),
  }),
  help: () => ({
    description: "set a cookie for the current page's origin (your own Chrome: never over one you have)",
    args: { name: 'cookie name', value: 'cookie value' },
    options: {
      path: 'cookie path (default /)',
      expires: 'expiry in seconds since the epoch (default: a session cookie)',
      httpOnly: 'hidden from page scripts',
      secure: 'sent over https only',
      sameSite: 'Strict, Lax or None',
    },
    examples: ['bproxy -s m4q7z2 cookies set theme dark'],
  }),
});

export const cookiesClear = defineAction({
  action: 'cookies.clear',
  path: ['cookies', 'clear'],
  args: [optional('name')],
  options: {},
  call: ([name]) => ({ action: 'cookies.clear', params: compact({ name }) }),
  help: () => ({
    description:
      "delete the current page's cookies, or the one named (your own Chrome: only if you allowed it)",
    args: { name: 'only this cookie' },
    options: {},
    examples: ['bproxy -s m4q7z2 cookies clear', 'bproxy -s m4q7z2 cookies clear session_id'],
  }),
});

export const COOKIES: ActionGroup = {
  name: 'cookies',
  commands: [cookiesList, cookiesSet, cookiesClear],
  help: () => ({
    description: "the current page's cookies",
    examples: ['bproxy -s m4q7z2 cookies list', 'bproxy -s m4q7z2 cookies set theme dark'],
  }),
};

function numberOf(name: string, raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value))
    throw usageError(`${name} must be a number, got "${raw}"`);
  return value;
}

export const emulate = defineAction({
  action: 'emulate',
  path: ['emulate'],
  args: [],
  options: {
    device: choice('--device <name>', DEVICE_NAMES),
    viewport: text('--viewport <WxH>'),
    scale: text('--scale <ratio>'),
    mobile: flag('--mobile'),
    userAgent: text('--user-agent <ua>'),
    touch: flag('--touch'),
    geo: text('--geo <lat,lon>'),
    timezone: text('--timezone <zone>'),
    locale: text('--locale <tag>'),
    colorScheme: choice('--color-scheme <scheme>', ['light', 'dark', 'no-preference']),
    offline: flag('--offline'),
    online: flag('--online'),
    network: choice('--network <profile>', ['slow-3g', 'fast-3g', '4g', 'none']),
    reset: flag('--reset'),
  },
  call(_args, o) {
    let width: number | undefined;
    let height: number | undefined;
    if (o.viewport !== undefined) {
      const m = /^([0-9]{3,4})x([0-9]{3,4})$/.exec(o.viewport);
      if (m === null) throw usageError(`--viewport must be WIDTHxHEIGHT, e.g. 390x844, got "${o.viewport}"`);
      width = Number(m[1]);
      height = Number(m[2]);
    }
    let geolocation: { latitude: number; longitude: number } | undefined;
    if (o.geo !== undefined) {
      const [lat, lon, ...rest] = o.geo.split(',');
      if (lat === undefined || lon === undefined || rest.length > 0)
        throw usageError(`--geo must be LATITUDE,LONGITUDE, e.g. 48.8584,2.2945, got "${o.geo}"`);
      geolocation = {
        latitude: numberOf('--geo latitude', lat),
        longitude: numberOf('--geo longitude', lon),
      };
    }
    if (o.offline === true && o.online === true) throw usageError('give --offline or --online, not both');
    const params = compact({
      device: o.device,
      width,
      height,
      scale: o.scale === undefined ? undefined : numberOf('--scale', o.scale),
      mobile: o.mobile,
      userAgent: o.userAgent,
      touch: o.touch,
      geolocation,
      timezone: o.timezone,
      locale: o.locale,
      colorScheme: o.colorScheme,
      offline: o.offline === true ? true : o.online === true ? false : undefined,
      network: o.network,
      reset: o.reset,
    });
    if (Object.keys(params).length === 0)
      throw usageError('name something to emulate (see --help), or --reset');
    return { action: 'emulate', params };
  },
  help: () => ({
    description:
      'emulate a device, viewport, geolocation, timezone, locale, color scheme or network in this tab (undone when the session closes)',
    args: {},
    options: {
      device: 'a named phone or tablet (its viewport, scale, user agent and touch)',
      viewport: 'viewport in CSS pixels, e.g. 390x844',
      scale: 'device pixel ratio, e.g. 2',
      mobile: 'mobile viewport (meta viewport, overlay scrollbars)',
      userAgent: 'the user agent string',
      touch: 'touch input (maxTouchPoints 5)',
      geo: 'position as LATITUDE,LONGITUDE',
      timezone: 'IANA time zone, e.g. Asia/Tokyo',
      locale: 'language tag, e.g. fr-FR',
      colorScheme: 'prefers-color-scheme: light, dark or no-preference',
      offline: 'cut the network',
      online: 'restore the network',
      network: 'throttle: slow-3g, fast-3g, 4g, none',
      reset: 'undo every emulation of this tab',
    },
    examples: [
      'bproxy -s m4q7z2 emulate --device iphone-15',
      'bproxy -s m4q7z2 emulate --viewport 1280x720 --color-scheme dark',
      'bproxy -s m4q7z2 emulate --geo 48.8584,2.2945 --timezone Europe/Paris --locale fr-FR',
    ],
    after:
      '\nIn your own Chrome (the extension) only the viewport and the color scheme apply; the answer\nnames the rest under notApplied.\n',
    reference: [
      {
        usage:
          '`bproxy -s ID emulate [--device NAME] [--viewport WxH] [--geo LAT,LON] [--timezone Z] [--color-scheme S] [--offline] …`',
        does: 'emulate a device, position, zone, locale, scheme or network in this tab',
      },
    ],
  }),
});
