#!/usr/bin/env node
// The published entry: the bundle is built by `npm run build` (scripts/build.mjs).
import '../dist/bproxy.mjs';
