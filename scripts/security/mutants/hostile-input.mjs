// Removals of the threat model's lines on hostile input (bounded error messages, every door fuzzed)
// and on debug logs that hold no field value.

const VALIDATE = 'packages/protocol/src/validate.ts';
const PAYLOAD_LOG = 'packages/daemon/src/logs/payload-log.ts';
const DOORS = 'packages/daemon/test/fuzz.test.ts › hostile values at every HTTP door';
const DEBUG_LOG =
  'tests/e2e/debug-log-secrets.test.ts › the debug log of a real daemon › never holds what the agent filled, typed or answered a prompt with, though its reads return it';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'describe-value-bounded',
    protects: 'an error message describes any value in a bounded glimpse, never throwing',
    edits: [
      {
        file: VALIDATE,
        find: '  try {\n    picture(value, 0, out, { left: max + 1 });\n  } catch {\n    return typeof value;\n  }',
        replace: '  out.push(String(JSON.stringify(value)));',
      },
    ],
    kills: [
      'packages/protocol/test/validate.test.ts › describing what was wrong › describes any value — 100,000 deep, 100,000 wide, megabytes long — in a bounded line, never throwing',
      'packages/daemon/test/faults-ws-fuzz.test.ts › fuzzing /ws frames › never crashes, never drops the driver and never acts on an invalid frame',
      `${DOORS} › POST / answers a catalogue error to values 100,000 deep, wide or huge in any field, and serves the next`,
      DOORS,
      'packages/daemon/test/fuzz.test.ts',
      'packages/native-host/test/host-process.test.ts › hostile messages to the real host › answers BAD_REQUEST to messages 100,000 deep, wide or huge in any field, and serves the next',
    ],
  },
  {
    id: 'describe-value-bounded-mcp',
    protects: 'the MCP server answers hostile tool arguments with a catalogue code',
    build: true,
    edits: [
      {
        file: VALIDATE,
        find: '  try {\n    picture(value, 0, out, { left: max + 1 });\n  } catch {\n    return typeof value;\n  }',
        replace: '  out.push(String(JSON.stringify(value)));',
      },
    ],
    kills: [
      'tests/e2e/mcp-hostile.test.ts › hostile input to the MCP server › answers tool arguments 100,000 deep, wide or huge with a catalogue code, and serves the next',
    ],
  },
  {
    id: 'format-issues-bounded',
    protects: 'a validation message names at most five unknown keys and cuts what it quotes',
    edits: [
      {
        file: VALIDATE,
        find: '        const named = issue.keys.slice(0, MAX_KEYS_NAMED).map((k) => describeValue(k, 40));',
        replace: '        const named = issue.keys.map((k) => JSON.stringify(k));',
      },
    ],
    kills: [
      'packages/protocol/test/validate.test.ts › describing what was wrong › keeps a validation message bounded for a value nested 100,000 deep, a huge key list and long keys',
    ],
  },
  {
    id: 'ws-handler-survives',
    protects: 'a /ws frame whose handling throws is answered and the connection serves the next',
    edits: [
      {
        file: 'packages/daemon/src/http/ws.ts',
        find: '  try {\n    transport.onmessage?.(parsed as DriverMessage);\n  } catch (error) {',
        replace:
          '  try {\n    transport.onmessage?.(parsed as DriverMessage);\n  } finally {\n  }\n  if (parsed === text) {\n    const error = null;',
      },
    ],
    kills: [
      'packages/daemon/test/http/ws.test.ts › GET /ws › answers INTERNAL_ERROR to a frame whose handling throws, and the connection serves the next',
    ],
  },
  {
    id: 'host-handler-survives',
    protects: 'a native message whose handling throws is answered and the host serves the next',
    edits: [
      {
        file: 'packages/native-host/src/run-host.ts',
        find: '      try {\n        session.receive(value);\n      } catch (error) {',
        replace:
          '      try {\n        session.receive(value);\n      } finally {\n      }\n      if (value === receive) {\n        const error = null;',
      },
    ],
    kills: [
      'packages/native-host/test/run-host.test.ts › a message whose handling throws › is answered INTERNAL_ERROR, logged, and the host serves the next',
    ],
  },
  {
    id: 'driver-details-depth',
    protects: "a driver error's details nest at most 16 levels",
    edits: [
      {
        file: 'packages/protocol/src/errors.ts',
        find: '    .refine((details) => nestsWithin(details, MAX_DETAILS_DEPTH), {',
        replace: '    .refine((details) => details === details || nestsWithin(details, MAX_DETAILS_DEPTH), {',
      },
    ],
    kills: [
      'packages/daemon/test/fuzz.test.ts › hostile answers from the driver › settles a request whose answer nests %s 100,000 deep with DRIVER_ERROR, and serves the next',
    ],
  },
  {
    id: 'payload-log-width',
    protects: 'a logged payload keeps at most 100 entries per level: one readable line',
    edits: [{ file: PAYLOAD_LOG, find: 'const MAX_ENTRIES = 100;', replace: 'const MAX_ENTRIES = 1e9;' }],
    kills: [
      `${DOORS} › POST / answers a catalogue error to values 100,000 deep, wide or huge in any field, and serves the next`,
    ],
  },
  {
    id: 'bridge-relay-deep-command',
    protects: 'a CDP command too deep to write again gets an error, never ends the bridge',
    edits: [
      {
        file: 'packages/bridge/src/relay/cdp-frames.ts',
        find: '  try {\n    const value = JSON.parse(text) as Record<string, unknown>;\n    return JSON.stringify({ ...value, id });\n  } catch {\n    return undefined;\n  }',
        replace:
          '  const value = JSON.parse(text) as Record<string, unknown>;\n  return JSON.stringify({ ...value, id });',
      },
    ],
    kills: [
      'packages/bridge/test/hostile-frames.test.ts › relay: hostile frames from a tool › relays or answers frames 100,000 deep, wide or huge in any field, id first or last, and serves the next',
    ],
  },
  {
    id: 'debug-log-read-values',
    protects: "the debug log hides a field's value in read answers",
    build: true,
    edits: [
      {
        file: PAYLOAD_LOG,
        find: '          data: redact(hideReadValues(action, hideFields(SECRET_RESULTS, action, response.data))),',
        replace: '          data: redact(hideFields(SECRET_RESULTS, action, response.data)),',
      },
    ],
    kills: [DEBUG_LOG],
  },
  {
    id: 'debug-log-prompt-text',
    protects: 'the debug log hides the text a prompt dialog is answered with',
    build: true,
    edits: [
      { file: PAYLOAD_LOG, find: "  dialog: ['promptText'],", replace: '' },
      { file: PAYLOAD_LOG, find: '|prompttext|defaultprompt/i;', replace: '/i;' },
    ],
    kills: [DEBUG_LOG],
  },
  {
    id: 'cli-failure-reported',
    protects: 'the CLI answers any argv with an exit code and a line, never a stack trace',
    build: true,
    edits: [
      {
        file: 'packages/cli/src/command-line.ts',
        find: '  } catch (error) {\n    return reportFailure(error, line.globals.pretty);\n  }',
        replace: '  } finally {\n    void reportFailure;\n  }',
      },
    ],
    kills: ['tests/e2e/faults-cli-argv.test.ts'],
  },
];
