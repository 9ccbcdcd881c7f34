/**
 * The slice of the Chrome DevTools Protocol this driver uses, typed by hand (no devtools-protocol
 * dependency). Only the fields we read or send are listed; the browser may send more.
 */
import type { InputCommands } from '@bproxy/driver';

export interface TargetInfo {
  targetId: string;
  type: string;
  title: string;
  url: string;
  attached: boolean;
  openerId?: string;
  browserContextId?: string;
}

export interface FrameInfo {
  id: string;
  parentId?: string;
  loaderId: string;
  url: string;
  urlFragment?: string;
  /** An error page's: the URL that did not load. */
  unreachableUrl?: string;
}

export interface FrameTree {
  frame: FrameInfo;
  childFrames?: FrameTree[];
}

export interface ExecutionContextDescription {
  id: number;
  origin: string;
  name: string;
  auxData?: { frameId?: string; isDefault?: boolean; type?: string };
}

export interface RemoteObject {
  type: string;
  subtype?: string;
  value?: unknown;
  description?: string;
}

export interface ExceptionDetails {
  text: string;
  exception?: RemoteObject;
}

export interface CallArgument {
  value?: unknown;
}

type NoParams = Record<string, never>;
type NoResult = Record<string, never>;

export interface CdpCommands {
  'Browser.getVersion': {
    params: NoParams;
    result: { product: string; userAgent: string; protocolVersion: string };
  };
  'Browser.close': { params: NoParams; result: NoResult };
  'Browser.setDownloadBehavior': {
    params: {
      behavior: 'deny' | 'allow' | 'allowAndName' | 'default';
      downloadPath?: string;
      eventsEnabled?: boolean;
      browserContextId?: string;
    };
    result: NoResult;
  };
  'Browser.cancelDownload': { params: { guid: string; browserContextId?: string }; result: NoResult };
  'Target.setDiscoverTargets': { params: { discover: boolean }; result: NoResult };
  'Target.createTarget': {
    params: { url: string; background?: boolean; newWindow?: boolean };
    result: { targetId: string };
  };
  'Target.closeTarget': { params: { targetId: string }; result: { success?: boolean } };
  'Target.activateTarget': { params: { targetId: string }; result: NoResult };
  'Target.attachToTarget': { params: { targetId: string; flatten: true }; result: { sessionId: string } };
  'Target.getTargetInfo': { params: { targetId: string }; result: { targetInfo: TargetInfo } };
  'Target.setAutoAttach': {
    params: {
      autoAttach: boolean;
      waitForDebuggerOnStart: boolean;
      flatten: true;
      filter?: { type?: string; exclude?: boolean }[];
    };
    result: NoResult;
  };
  'DOM.getFrameOwner': { params: { frameId: string }; result: { backendNodeId: number } };
  'DOM.resolveNode': {
    params: { backendNodeId: number; executionContextId?: number };
    result: { object: { objectId?: string } };
  };
  'Page.enable': { params: NoParams; result: NoResult };
  'Page.setLifecycleEventsEnabled': { params: { enabled: boolean }; result: NoResult };
  'Page.getFrameTree': { params: NoParams; result: { frameTree: FrameTree } };
  'Page.addScriptToEvaluateOnNewDocument': {
    params: { source: string; worldName?: string; runImmediately?: boolean };
    result: { identifier: string };
  };
  'Page.createIsolatedWorld': {
    params: { frameId: string; worldName: string; grantUniveralAccess?: boolean };
    result: { executionContextId: number };
  };
  'Page.navigate': {
    params: { url: string };
    result: { frameId: string; loaderId?: string; errorText?: string };
  };
  'Page.reload': { params: { ignoreCache?: boolean }; result: NoResult };
  'Page.getNavigationHistory': {
    params: NoParams;
    result: { currentIndex: number; entries: { id: number; url: string; title: string }[] };
  };
  'Page.navigateToHistoryEntry': { params: { entryId: number }; result: NoResult };
  'Page.handleJavaScriptDialog': { params: { accept: boolean; promptText?: string }; result: NoResult };
  'Page.captureScreenshot': {
    params: {
      format?: 'png' | 'jpeg';
      quality?: number;
      clip?: { x: number; y: number; width: number; height: number; scale: number };
      captureBeyondViewport?: boolean;
    };
    result: { data: string };
  };
  'Page.getLayoutMetrics': {
    params: NoParams;
    result: {
      cssContentSize: { width: number; height: number };
      cssVisualViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
      /** In device pixels: its width over the CSS one is the device pixel ratio. */
      visualViewport?: { clientWidth: number };
    };
  };
  'Runtime.enable': { params: NoParams; result: NoResult };
  'Runtime.runIfWaitingForDebugger': { params: NoParams; result: NoResult };
  'Runtime.evaluate': {
    params: { expression: string; contextId?: number; returnByValue?: boolean; awaitPromise?: boolean };
    result: { result: RemoteObject; exceptionDetails?: ExceptionDetails };
  };
  'Runtime.callFunctionOn': {
    params: {
      functionDeclaration: string;
      executionContextId?: number;
      objectId?: string;
      arguments: CallArgument[];
      returnByValue: boolean;
      awaitPromise: boolean;
      userGesture?: boolean;
    };
    result: { result: RemoteObject; exceptionDetails?: ExceptionDetails };
  };
  // Input commands as the driver kit's trusted input sends them (one definition for both drivers).
  'Input.dispatchMouseEvent': { params: InputCommands['Input.dispatchMouseEvent']; result: NoResult };
  'Input.dispatchKeyEvent': { params: InputCommands['Input.dispatchKeyEvent']; result: NoResult };
  'Input.insertText': { params: InputCommands['Input.insertText']; result: NoResult };
  'Input.setInterceptDrags': { params: InputCommands['Input.setInterceptDrags']; result: NoResult };
  'Input.dispatchDragEvent': { params: InputCommands['Input.dispatchDragEvent']; result: NoResult };
  'Emulation.setFocusEmulationEnabled': { params: { enabled: boolean }; result: NoResult };
  'Page.setInterceptFileChooserDialog': { params: { enabled: boolean }; result: NoResult };
  'DOM.describeNode': {
    params: { backendNodeId: number };
    result: { node: { nodeName: string; attributes?: string[] } };
  };
  'DOM.setFileInputFiles': { params: { files: string[]; backendNodeId: number }; result: NoResult };
  'Page.printToPDF': { params: Record<string, unknown>; result: { data: string } };
  // The tab's console and network log (@bproxy/driver's TabLog reads the events).
  'Log.enable': { params: NoParams; result: NoResult };
  'Network.enable': { params: NoParams; result: NoResult };
  'Network.getResponseBody': {
    params: { requestId: string };
    result: { body: string; base64Encoded: boolean };
  };
  'Network.getRequestPostData': { params: { requestId: string }; result: { postData: string } };
  // The site policy's guard (driver/nav-guard.ts): documents paused at the browser before they are sent.
  'Fetch.enable': {
    params: { patterns: { resourceType?: string; requestStage?: 'Request' | 'Response' }[] };
    result: NoResult;
  };
  'Fetch.disable': { params: NoParams; result: NoResult };
  'Fetch.continueRequest': { params: { requestId: string }; result: NoResult };
  'Fetch.failRequest': { params: { requestId: string; errorReason: string }; result: NoResult };
}

export type CdpEvents = {
  'Target.targetCreated': { targetInfo: TargetInfo };
  'Fetch.requestPaused': {
    requestId: string;
    frameId: string;
    resourceType: string;
    request: { url: string; urlFragment?: string };
  };
  'Browser.downloadWillBegin': { frameId: string; guid: string; url: string; suggestedFilename: string };
  'Browser.downloadProgress': {
    guid: string;
    totalBytes: number;
    receivedBytes: number;
    state: 'inProgress' | 'completed' | 'canceled';
  };
  'Target.targetDestroyed': { targetId: string };
  'Target.targetInfoChanged': { targetInfo: TargetInfo };
  'Target.targetCrashed': { targetId: string };
  'Target.detachedFromTarget': { sessionId: string; targetId?: string };
  'Target.attachedToTarget': { sessionId: string; targetInfo: TargetInfo; waitingForDebugger: boolean };
  'Page.frameNavigated': { frame: FrameInfo; type?: string };
  'Page.navigatedWithinDocument': { frameId: string; url: string };
  'Page.frameRequestedNavigation': { frameId: string; url: string };
  'Page.frameStartedLoading': { frameId: string };
  'Page.frameStoppedLoading': { frameId: string };
  'Page.lifecycleEvent': { frameId: string; loaderId: string; name: string };
  'Page.javascriptDialogOpening': { url: string; message: string; type: string; defaultPrompt?: string };
  'Page.javascriptDialogClosed': { result: boolean; userInput: string };
  'Page.windowOpen': { url: string; windowName: string; userGesture: boolean };
  'Runtime.executionContextCreated': { context: ExecutionContextDescription };
  'Runtime.executionContextDestroyed': { executionContextId: number };
  'Runtime.executionContextsCleared': Record<string, never>;
  'Input.dragIntercepted': { data: Record<string, unknown> };
  'Page.fileChooserOpened': {
    frameId: string;
    mode: 'selectSingle' | 'selectMultiple';
    backendNodeId?: number;
  };
} & { readonly [E in LoggedEvent]: unknown };

/** The events a tab's console and network log reads, parsed there (@bproxy/driver's TabLog). */
export const LOGGED_EVENTS = [
  'Runtime.consoleAPICalled',
  'Runtime.exceptionThrown',
  'Log.entryAdded',
  'Network.requestWillBeSent',
  'Network.requestWillBeSentExtraInfo',
  'Network.responseReceived',
  'Network.responseReceivedExtraInfo',
  'Network.loadingFinished',
  'Network.loadingFailed',
] as const;
export type LoggedEvent = (typeof LOGGED_EVENTS)[number];

export type CdpMethod = keyof CdpCommands;
export type CdpEventName = keyof CdpEvents;
