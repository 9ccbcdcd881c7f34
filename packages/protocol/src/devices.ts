/**
 * The named devices `emulate --device` knows: a small list of common phones and tablets, written here
 * from their published screen sizes (CSS pixels, portrait), pixel ratios and browsers' user agents.
 * Plain data, no zod: both drivers and the CLI's help read it.
 */
export interface DeviceSpec {
  readonly width: number;
  readonly height: number;
  readonly scale: number;
  readonly mobile: boolean;
  readonly touch: boolean;
  readonly userAgent: string;
}

const IOS_17 =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPADOS_17 =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const android = (model: string): string =>
  `Mozilla/5.0 (Linux; Android 14; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36`;

export const DEVICES = {
  'iphone-15': { width: 393, height: 852, scale: 3, mobile: true, touch: true, userAgent: IOS_17 },
  'iphone-se': { width: 375, height: 667, scale: 2, mobile: true, touch: true, userAgent: IOS_17 },
  'pixel-8': {
    width: 412,
    height: 915,
    scale: 2.625,
    mobile: true,
    touch: true,
    userAgent: android('Pixel 8'),
  },
  'galaxy-s23': {
    width: 360,
    height: 780,
    scale: 3,
    mobile: true,
    touch: true,
    userAgent: android('SM-S911B'),
  },
  'ipad-air': { width: 820, height: 1180, scale: 2, mobile: true, touch: true, userAgent: IPADOS_17 },
  'galaxy-tab-s9': {
    width: 800,
    height: 1280,
    scale: 2,
    mobile: true,
    touch: true,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  },
} as const satisfies Record<string, DeviceSpec>;

export type DeviceName = keyof typeof DEVICES;
export const DEVICE_NAMES = Object.keys(DEVICES) as [DeviceName, ...DeviceName[]];

/** Network throttling profiles: latency in ms, throughput in bytes per second (-1: unlimited). */
export const NETWORK_CONDITIONS = {
  'slow-3g': { latency: 400, download: (400 * 1024) / 8, upload: (400 * 1024) / 8 },
  'fast-3g': { latency: 150, download: (1.6 * 1024 * 1024) / 8, upload: (750 * 1024) / 8 },
  '4g': { latency: 40, download: (9 * 1024 * 1024) / 8, upload: (9 * 1024 * 1024) / 8 },
  none: { latency: 0, download: -1, upload: -1 },
} as const;
