/**
 * The entry of dist/native-host.mjs, the program the launcher `bproxy host install` writes runs with
 * the Node recorded at install time. Beside it: the daemon it starts on demand, the CLI its agent may
 * run, and the agent itself (dist/agent-runtime.mjs), imported only when a chat begins — its model SDKs
 * stay in node_modules, loaded for the provider in use — and so does the PTY's native addon, loaded on a
 * terminal's first key. `bproxy` typed in a terminal runs the CLI beside it with this Node.
 */
import { fileURLToPath } from 'node:url';
import { agentHandler, type AgentModule } from './agent-handler';
import { hostMain } from './main';
import { detachMsOf } from './terminal/terminal-command';
import { terminalHandler } from './terminal/terminal-handler';

const beside = (file: string) => new URL(`./${file}`, import.meta.url);
const daemonScript = fileURLToPath(beside('daemon.mjs'));
// A computed specifier: the bundler leaves it alone, so the agent is a file of its own.
const loadAgent = async (): Promise<AgentModule> =>
  (await import(beside('agent-runtime.mjs').href)) as AgentModule;
const bproxyCommand = [process.execPath, fileURLToPath(beside('bproxy.mjs'))];
void hostMain({
  daemonScript,
  bproxyCommand,
  agent: agentHandler(daemonScript, loadAgent),
  terminal: terminalHandler({
    bproxyCommand,
    ...(detachMsOf(process.env) === undefined ? {} : { detachMs: detachMsOf(process.env) }),
  }),
});
