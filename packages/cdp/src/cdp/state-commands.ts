/**
 * The DevTools commands of cookies, storage and emulation (the driver kit's StateCommands, with the
 * browser-wide ones this driver also sends), added to the typed slice of the protocol
 * (protocol-types.ts) by interface merging, so that the state actions stay in their own files.
 */
import type { DevtoolsCookie, StateCommands } from '@bproxy/driver';
import type {} from './protocol-types';

type Kit = { [M in keyof StateCommands]: StateCommands[M] };

declare module './protocol-types' {
  interface CdpCommands extends Kit {
    'Storage.getCookies': { params: Record<string, never>; result: { cookies: DevtoolsCookie[] } };
    'Browser.grantPermissions': {
      params: { permissions: string[]; origin: string };
      result: Record<string, never>;
    };
  }
}
