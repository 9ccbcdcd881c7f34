/**
 * The entry of dist/native-host.mjs, the program the launcher `bproxy host install` writes runs with
 * the Node recorded at install time. Beside it: the daemon it starts on demand, the CLI its agent may
 * run, and the agent itself (dist/agent-runtime.mjs), imported only when a chat begins — its model SDKs
 * stay in node_modules, loaded for the provider in use.
 */
import { fileURLToPath } from 'node:url';
import { agentHandler, type AgentModule } from './agent-handler';
import { hostMain } from './main';

const beside = (file: string) => new URL(`./${file}`, import.meta.url);
const daemonScript = fileURLToPath(beside('daemon.mjs'));
// A computed specifier: the bundler leaves it alone, so the agent is a file of its own.
const loadAgent = async (): Promise<AgentModule> =>
  (await import(beside('agent-runtime.mjs').href)) as AgentModule;
void hostMain({ daemonScript, agent: agentHandler(daemonScript, loadAgent) });
