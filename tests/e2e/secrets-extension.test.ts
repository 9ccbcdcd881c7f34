/**
 * The secrets suite (tests/kit/suites/secrets.ts) on the extension driver: the real daemon (at the
 * debug log level, so its logs hold every payload) and CLI, headless Chromium with the built extension
 * paired through its popup.
 */
import { afterAll } from 'vitest';
import { pairedExtension } from '../kit/extension-driver';
import { defineSecretSuite } from '../kit/suites/secrets';

const paired = pairedExtension('bproxy-e2e-secrets-ext-', [], { env: { BPROXY_LOG_LEVEL: 'debug' } });

afterAll(() => paired.close(), 60_000);

defineSecretSuite({ label: 'the extension driver', start: paired.start });
