/**
 * `@bproxy/agent/config` — the agent's configuration files without the agent: what `bproxy agent
 * config` reads and writes. It loads no model SDK.
 */
export {
  isConfigured,
  readConfig,
  readConfigFile,
  readKey,
  resolveConfig,
  writeConfigFile,
  writeKey,
  type AgentConfig,
  type AgentConfigFile,
} from './config/agent-config';
export {
  PROVIDER_NAMES,
  PROVIDERS,
  isProviderName,
  type ProviderName,
  type ProviderInfo,
} from './config/provider-names';
export {
  PROVIDER_SDKS,
  missingSdkMessage,
  sdkInstallCommand,
  sdkInstalled,
  type SdkPackage,
} from './config/sdk';
export { agentPaths, type AgentPaths } from './paths';
export { AgentError, isAgentError } from './errors';
