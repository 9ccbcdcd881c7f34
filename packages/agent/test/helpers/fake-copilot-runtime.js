// A scripted stand-in for the GitHub Copilot runtime that @github/copilot-sdk starts as a child
// process: JSON-RPC over stdio with vscode-jsonrpc's Content-Length framing, the SDK's protocol
// version 3 — the `connect` handshake, `session.create` / `session.resume` / `session.send` /
// `session.abort` / `session.detach`, `session.model.switchTo`, `runtime.shutdown` — and, as the
// runtime does for tools the SDK declared, `external_tool.requested` events answered by
// `session.tools.handlePendingToolCall`. Event and method names follow the SDK's generated protocol
// types. It records each call in FAKE_COPILOT_RECORD; FAKE_COPILOT_SCRIPT picks what the "model" does.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';

const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
const script = process.env.FAKE_COPILOT_SCRIPT ?? 'click';
const record = (method, params) => {
  if (process.env.FAKE_COPILOT_RECORD)
    appendFileSync(process.env.FAKE_COPILOT_RECORD, `${JSON.stringify({ method, params })}\n`);
};
const pending = new Map();
const aborted = new Set();
let last = null;

function event(sessionId, type, data, ephemeral = false) {
  const id = randomUUID();
  connection.sendNotification('session.event', {
    sessionId,
    event: {
      id,
      parentId: last,
      timestamp: new Date().toISOString(),
      type,
      data,
      ...(ephemeral ? { ephemeral: true } : {}),
    },
  });
  last = id;
}

function callTool(sessionId, toolName, args) {
  const requestId = randomUUID();
  const result = new Promise((resolve) => pending.set(requestId, resolve));
  event(sessionId, 'external_tool.requested', {
    requestId,
    toolCallId: `tc_${requestId.slice(0, 8)}`,
    toolName,
    arguments: args,
  });
  return result;
}

async function run(sessionId, prompt) {
  const messageId = randomUUID();
  const say = (text) => event(sessionId, 'assistant.message_delta', { messageId, deltaContent: text }, true);
  if (script === 'error') {
    event(sessionId, 'session.error', {
      errorType: 'quota',
      message: 'You have exceeded your Copilot quota',
    });
    return;
  }
  if (script === 'permission') {
    // The runtime wants to run a shell command of its own: it asks, and acts only on an approval.
    const requestId = randomUUID();
    const answer = new Promise((resolve) => pending.set(requestId, resolve));
    event(sessionId, 'permission.requested', {
      requestId,
      permissionRequest: {
        kind: 'shell',
        toolCallId: 'tc_shell',
        fullCommandText: 'cat ~/.ssh/id_ed25519',
        intention: 'read a key',
        commands: [{ identifier: 'cat', readOnly: true }],
        possiblePaths: [],
        possibleUrls: [],
        hasWriteFileRedirection: false,
        canOfferSessionApproval: false,
      },
    });
    const { result } = await answer;
    say(result.kind.startsWith('approve') ? 'Ran the command.' : `Not allowed (${result.kind}).`);
    event(sessionId, 'assistant.message', { messageId, content: `done with ${prompt}` });
    event(sessionId, 'session.idle', {}, true);
    return;
  }
  if (script === 'hang') {
    say('Thinking');
    await callTool(sessionId, 'snapshot', {});
    return;
  }
  say('Clicking. ');
  const outcome = await callTool(sessionId, 'click', { target: 'el3' });
  if (aborted.has(sessionId)) return;
  say(`Tool said: ${typeof outcome.result === 'string' ? outcome.result : outcome.result?.textResultForLlm}`);
  event(sessionId, 'assistant.message', { messageId, content: `done with ${prompt}` });
  event(sessionId, 'session.idle', {}, true);
}

connection.onRequest('connect', (params) => {
  record('connect', params);
  return { protocolVersion: 3, version: 'fake-runtime' };
});
connection.onRequest('session.create', (params) => {
  record('session.create', {
    sessionId: params.sessionId,
    model: params.model,
    tools: params.tools.map((t) => t.name),
    skipPermission: params.tools.every((t) => t.skipPermission === true),
    availableTools: params.availableTools,
    systemMessage: params.systemMessage.mode,
    requestPermission: params.requestPermission,
  });
  return { sessionId: params.sessionId, workspacePath: null, capabilities: {} };
});
connection.onRequest('session.resume', (params) => {
  record('session.resume', { sessionId: params.sessionId, tools: params.tools?.map((t) => t.name) });
  return { sessionId: params.sessionId, workspacePath: null, capabilities: {} };
});
connection.onRequest('session.model.switchTo', (params) => {
  record('session.model.switchTo', { modelId: params.modelId });
  return {};
});
connection.onRequest('session.send', (params) => {
  record('session.send', { sessionId: params.sessionId, prompt: params.prompt });
  aborted.delete(params.sessionId);
  void run(params.sessionId, params.prompt);
  return { messageId: randomUUID() };
});
connection.onRequest('session.tools.handlePendingToolCall', (params) => {
  record('session.tools.handlePendingToolCall', { result: params.result, error: params.error });
  pending.get(params.requestId)?.(params);
  pending.delete(params.requestId);
  return { success: true };
});
connection.onRequest('session.permissions.handlePendingPermissionRequest', (params) => {
  record('session.permissions.handlePendingPermissionRequest', { result: params.result });
  pending.get(params.requestId)?.(params);
  pending.delete(params.requestId);
  return { success: true };
});
connection.onRequest('session.abort', (params) => {
  record('session.abort', { sessionId: params.sessionId });
  aborted.add(params.sessionId);
  return {};
});
connection.onRequest('session.detach', () => ({ success: true }));
connection.onRequest('runtime.shutdown', () => {
  setTimeout(() => process.exit(0), 10);
  return {};
});
connection.listen();
