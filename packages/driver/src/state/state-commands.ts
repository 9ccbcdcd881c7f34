/**
 * The DevTools commands cookies, storage and emulation use, with the params and results they take.
 * Both drivers send them the way they send input: the CDP driver on the tab's session, the extension
 * through chrome.debugger on the tab.
 */

/** A cookie as Network.getCookies and Storage.getCookies answer it (the fields read here). */
export interface DevtoolsCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Seconds since the epoch; -1 (or session: true) for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  session: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

export interface DevtoolsCookieParam {
  name: string;
  value: string;
  url?: string;
  domain?: string;
  path?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  expires?: number;
}

export interface DevtoolsStorageId {
  securityOrigin: string;
  isLocalStorage: boolean;
}

type NoParams = Record<string, never>;
type NoResult = Record<string, never>;

export interface StateCommands {
  'Network.enable': { params: NoParams; result: NoResult };
  'Network.getCookies': { params: { urls: string[] }; result: { cookies: DevtoolsCookie[] } };
  'Network.setCookies': { params: { cookies: DevtoolsCookieParam[] }; result: NoResult };
  'Network.deleteCookies': {
    params: { name: string; domain: string; path: string };
    result: NoResult;
  };
  'Network.emulateNetworkConditions': {
    params: { offline: boolean; latency: number; downloadThroughput: number; uploadThroughput: number };
    result: NoResult;
  };
  'DOMStorage.enable': { params: NoParams; result: NoResult };
  'DOMStorage.getDOMStorageItems': {
    params: { storageId: DevtoolsStorageId };
    result: { entries: string[][] };
  };
  'DOMStorage.setDOMStorageItem': {
    params: { storageId: DevtoolsStorageId; key: string; value: string };
    result: NoResult;
  };
  'Emulation.setDeviceMetricsOverride': {
    params: { width: number; height: number; deviceScaleFactor: number; mobile: boolean };
    result: NoResult;
  };
  'Emulation.clearDeviceMetricsOverride': { params: NoParams; result: NoResult };
  'Emulation.setUserAgentOverride': { params: { userAgent: string }; result: NoResult };
  'Emulation.setTouchEmulationEnabled': {
    params: { enabled: boolean; maxTouchPoints?: number };
    result: NoResult;
  };
  'Emulation.setGeolocationOverride': {
    params: { latitude: number; longitude: number; accuracy: number };
    result: NoResult;
  };
  'Emulation.clearGeolocationOverride': { params: NoParams; result: NoResult };
  'Emulation.setTimezoneOverride': { params: { timezoneId: string }; result: NoResult };
  'Emulation.setLocaleOverride': { params: { locale?: string }; result: NoResult };
  'Emulation.setEmulatedMedia': {
    params: { features: { name: string; value: string }[] };
    result: NoResult;
  };
}

/** Sends one of these commands to the tab (the driver's channel: a CDP session, chrome.debugger). */
export interface StateSender {
  send<M extends keyof StateCommands>(
    method: M,
    params: StateCommands[M]['params'],
  ): Promise<StateCommands[M]['result']>;
}
