/**
 * The cross-origin frame suite (tests/kit/suites/frames.ts) on the extension driver: the real daemon
 * and CLI, headless Chromium with the built extension paired through its popup.
 */
import { afterAll } from 'vitest';
import { pairedExtension } from '../kit/extension-driver';
import { defineFrameSuite } from '../kit/suites/frames';

const paired = pairedExtension('bproxy-e2e-frames-ext-');

afterAll(() => paired.close(), 60_000);

defineFrameSuite({ label: 'the extension driver', start: paired.start });
