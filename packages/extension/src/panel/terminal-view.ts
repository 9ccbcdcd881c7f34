/**
 * The Terminal view: xterm.js on a PTY the native host owns, one terminal per tab. Opening the view
 * attaches to the tab's terminal (`pty.open`: the host replays what it printed meanwhile, or starts
 * nothing when it never ran); the first key starts the program — after the tab was shared if no
 * session holds it yet, so that BPROXY_SESSION in the terminal names the tab's session. Keys and
 * resizes go to the host; output, the program's end and errors come back. Following another tab
 * detaches this one (the host keeps it for a while) and attaches that tab's; a native host that started
 * anew is told about the terminal again (TerminalAttachment).
 */
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import type { HostToExtension, SessionId } from '@bproxy/protocol';
import { byId } from './dom';
import type { PanelLink } from './link';
import { TerminalAttachment } from './terminal-attachment';
import { storedTerminalId, terminalIdFor, type SessionStorage } from './tab-ids';

export interface TerminalViewOptions {
  readonly link: PanelLink;
  readonly currentTab: () => number | null;
  /** The session holding the tab, if one does. */
  readonly sessionOf: () => SessionId | undefined;
  /** Where the tab's terminal id is kept (chrome.storage.session). */
  readonly storage: SessionStorage;
}

const DIM = '\x1b[2m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

export class TerminalView {
  private readonly container = byId('terminal-screen');
  private readonly hint = byId('terminal-hint');
  private term: Terminal | null = null;
  private readonly fit = new FitAddon();
  private readonly attachment: TerminalAttachment;
  private tabId: number | null = null;
  /**
   * Whether the terminal has shown anything or been typed into since this view attached. Until then
   * the first key re-opens it with the tab's session (the host's ring is empty, so that re-open replays
   * nothing); after, keys go straight to the host, which starts the program again if it ended.
   */
  private started = false;
  /** Keys typed while the tab is being shared, sent once the terminal knows its session. */
  private waiting: string[] | null = null;
  private visible = false;
  /** The session the host was last told holds the attached terminal's tab. */
  private told: SessionId | undefined;

  constructor(private readonly options: TerminalViewOptions) {
    this.attachment = new TerminalAttachment(
      (detach) => options.link.send({ type: 'host', message: detach }),
      // The host came back, or a new one knows nothing of ours: attach again, as a reopened panel would.
      () => this.reattach(),
    );
    options.link.on((message) => {
      if (message.type === 'host') this.fromHost(message.message);
      if (message.type === 'status') this.attachment.hostStatus(message.host);
      if (message.type === 'sessions') this.sessionsChanged();
    });
    options.link.onReconnect(() => this.reattach());
  }

  /** The view was selected: create the screen on first use, fit it, attach to the tab's terminal. */
  show(): void {
    this.visible = true;
    const term = this.screen();
    this.fitWhole();
    term.focus();
    if (this.attachment.termId === null || this.tabId !== this.options.currentTab()) void this.attach();
  }

  /**
   * The panel serves a tab (it opened, or follows another tab). A tab that has a terminal is attached
   * whichever view shows, so that the host's detach window stops for it: a panel reopened on Activity
   * keeps the shell the user came back for. A tab that never had one is attached when the view shows.
   */
  tabChanged(): void {
    if (this.visible) {
      this.attachment.release();
      void this.attach();
      return;
    }
    const tabId = this.options.currentTab();
    if (tabId === null) return;
    void storedTerminalId(this.options.storage, tabId).then((termId) => {
      if (this.options.currentTab() !== tabId || this.visible) return;
      if (termId === null) {
        this.attachment.release();
        return;
      }
      if (this.attachment.termId === termId) return;
      void this.attach();
    });
  }

  private screen(): Terminal {
    if (this.term !== null) return this.term;
    const term = new Terminal({
      cursorBlink: true,
      fontSize: 12,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      scrollback: 5000,
      theme: { background: '#1e1e1e', foreground: '#d4d4d4' },
    });
    term.loadAddon(this.fit);
    term.open(this.container);
    term.onData((data) => void this.key(data));
    term.onResize(({ cols, rows }) => {
      const termId = this.attachment.termId;
      if (termId !== null)
        this.options.link.send({ type: 'host', message: { type: 'pty.resize', termId, cols, rows } });
    });
    new ResizeObserver(() => {
      if (this.visible && this.container.clientWidth > 0) this.fitWhole();
    }).observe(this.container);
    this.term = term;
    return term;
  }

  /**
   * Fits the terminal to its box in whole rows. The fit addon divides the box's height by the cell
   * height it computed, but the rows it draws can be a little taller (a fraction of a pixel each): a
   * full panel's terminal ended 1.8 px below its box, and the panel scrolled by 2 px under it. So the
   * rows are also bounded by the height the screen really draws per row.
   */
  private fitWhole(): void {
    const term = this.term;
    const dims = this.fit.proposeDimensions();
    if (term === null || dims === undefined || !(dims.rows > 0 && dims.cols > 0)) return;
    const style = getComputedStyle(this.container);
    const available =
      this.container.getBoundingClientRect().height -
      parseFloat(style.paddingTop) -
      parseFloat(style.paddingBottom);
    const drawn = term.element?.querySelector('.xterm-screen')?.getBoundingClientRect().height ?? 0;
    const rowHeight = drawn / term.rows;
    const rows =
      rowHeight > 0 ? Math.max(1, Math.min(dims.rows, Math.floor(available / rowHeight))) : dims.rows;
    if (rows !== term.rows || dims.cols !== term.cols) term.resize(dims.cols, rows);
  }

  private async attach(): Promise<void> {
    const tabId = this.options.currentTab();
    const term = this.screen();
    if (tabId === null) return;
    this.tabId = tabId;
    this.started = false;
    this.waiting = null;
    term.reset();
    this.hint.hidden = false;
    const termId = await terminalIdFor(this.options.storage, tabId);
    if (this.tabId !== tabId) return; // followed another tab meanwhile
    this.attachment.attach(termId);
    this.open(this.options.sessionOf());
  }

  private reattach(): void {
    if (this.attachment.termId === null) return;
    this.term?.reset();
    this.started = false;
    this.open(this.options.sessionOf());
  }

  /**
   * Another session holds the tab now (the daemon restarted and the tab was shared again, the user
   * shared it again, or its session ended): the host tells `bproxy` in the running terminal.
   */
  private sessionsChanged(): void {
    const termId = this.attachment.termId;
    if (termId === null || this.tabId !== this.options.currentTab()) return;
    const session = this.options.sessionOf();
    if (session === this.told) return;
    this.told = session;
    this.options.link.send({
      type: 'host',
      message: { type: 'pty.session', termId, ...(session === undefined ? {} : { session }) },
    });
  }

  private open(session?: SessionId): void {
    const termId = this.attachment.termId;
    if (termId === null || this.term === null) return;
    this.told = session;
    const { cols, rows } = this.term;
    this.options.link.send({
      type: 'host',
      message: {
        type: 'pty.open',
        termId,
        cols,
        rows,
        ...(session === undefined ? {} : { session }),
      },
    });
  }

  private async key(data: string): Promise<void> {
    const termId = this.attachment.termId;
    if (termId === null) return;
    if (this.started) {
      this.input(termId, data);
      return;
    }
    if (this.waiting !== null) {
      this.waiting.push(data);
      return;
    }
    // The first key: the terminal starts with the tab's session in its environment.
    this.waiting = [data];
    this.hint.hidden = true;
    const session = await this.session();
    const typed = this.waiting;
    this.waiting = null;
    if (this.attachment.termId !== termId) return;
    this.open(session);
    this.started = true;
    for (const keys of typed) this.input(termId, keys);
  }

  private input(termId: string, data: string): void {
    this.options.link.send({ type: 'host', message: { type: 'pty.input', termId, data } });
  }

  /** The tab's session, sharing the tab when none holds it (undefined when that fails). */
  private async session(): Promise<SessionId | undefined> {
    const held = this.options.sessionOf();
    if (held !== undefined) return held;
    const tabId = this.tabId;
    if (tabId === null) return undefined;
    const answer = await this.options.link.user({ kind: 'share_tab', tabId });
    if (answer.ok && answer.result.kind === 'share_tab') return answer.result.shared.session;
    this.term?.writeln(
      `${DIM}This tab could not be shared (${answer.ok ? 'unexpected answer' : answer.reason}): the terminal starts without BPROXY_SESSION.${RESET}`,
    );
    return undefined;
  }

  private fromHost(message: HostToExtension): void {
    if (!('termId' in message) || message.termId !== this.attachment.termId || this.term === null) return;
    if (message.type === 'pty.output') {
      this.hint.hidden = true;
      this.started = true;
      this.term.write(message.data);
    } else if (message.type === 'pty.exit') {
      this.hint.hidden = true;
      const how =
        message.reason === 'detach_expired'
          ? 'was ended: no side panel showed it for a minute'
          : message.signal !== null
            ? `ended by ${message.signal}`
            : `exited with code ${message.exitCode ?? '?'}`;
      this.term.writeln(`\r\n${DIM}[the program ${how} — press any key to start again]${RESET}`);
    } else if (message.type === 'error') {
      if (this.attachment.hostError(message)) return;
      this.term.writeln(`\r\n${RED}${message.message}${RESET}`);
    }
  }
}
