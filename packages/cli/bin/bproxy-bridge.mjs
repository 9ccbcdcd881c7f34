#!/usr/bin/env node
// The installed `bproxy-bridge`: a stand-in Chrome for CDP tools (see `bproxy bridge --help`).
import { bridgeMain } from '../dist/bridge.mjs';

await bridgeMain(process.argv.slice(2));
