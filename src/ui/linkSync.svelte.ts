// Share-link sync (the format is shareLink.ts): the URL hash follows the session, and a link —
// opened, or a hash change — is shown, then recorded (after the user's consent when it adds
// Python), its what-if edits made again and its position restored.
//
// Links race with themselves: a hash can change while a restore awaits Python, and a hash write
// can be overtaken by the next one. Each link loaded gets a number (`loadSeq`); a restore made for
// an older one stops at its next await and drops the answers it gets. While a restore runs the
// hash keeps what the link carried; afterwards it follows the session again.
//
// A reload never runs by itself what was running when the last page of the tab stopped (RunMark,
// runMark.ts): the code is shown, with a note that its last run did not finish and a button to run
// it.

import type { Position } from '../core/trace';
import type { Edit } from '../core/whatIf';
import { embedSnippet, fullAppUrl } from './embed';
import type { RunFlag, RunMark } from './runMark';
import { decodeHash, encodeHash, type SharedState } from './shareLink';

/** The address bar and the clipboard (the browser's, or a test's). */
export interface LinkEnvironment {
  /** The current hash: '' or '#…'. */
  hash(): string;
  /** Replaces the hash without a history entry and without a hashchange event. */
  replaceHash(hash: string): void;
  /** The user (or a link) changed the hash. */
  onHashChange(listener: () => void): void;
  /** The page's URL, hash included. */
  href(): string;
  copy(text: string): Promise<void>;
  /** The hash this tab last wrote, kept across a reload of the tab: opening it again shows the
   * user's own code, which runs without asking. */
  ownHash?: { get(): string | null; set(hash: string): void };
  /** The page is an embed inside a course page's frame (`?embed`, embed.ts): its link is the
   * author's example and runs at once. An `?embed` link opened as a page of its own asks first,
   * as any shared link does. */
  embedded?: boolean;
  /** Whether a run is in progress, kept across a reload of the tab (runMark.ts). */
  runFlag?: RunFlag;
}

/** The recording a restore made: the link's edits and position are applied to it, unless another
 * recording has taken its place (`current` false). */
export interface LinkedRun {
  readonly current: boolean;
  replayEdits(edits: readonly Edit[], wanted: () => boolean): Promise<void>;
  /** Goes to the link's position, or with null stays where the edits left the debugger. */
  goTo(position: Position | null): void;
}

/** What the link needs from the rest of the session. */
export interface LinkHost {
  /** The session as a link carries it. */
  snapshot(): SharedState;
  /** Shows a link's program in place of the current one (nothing runs). True when it is a
   * gallery example, call included: the app's own code, which may run without asking. */
  show(shared: SharedState): boolean;
  readonly engineReady: boolean;
  /** Waits for the Python engine; false when it cannot load. */
  waitForEngine(): Promise<boolean>;
  /** Checks the link's conditions and watch expressions in Python before they run. */
  checkExpressions(): Promise<void>;
  /** Records the program shown; null when no recording came back, or when `wanted` turned false
   * before the answer (the answer is then dropped). */
  record(wanted: () => boolean): Promise<LinkedRun | null>;
}

/** How long the hash waits after an edit of the program (a move is written at once). */
const WRITE_DELAY_MS = 400;

export class LinkSync {
  /** Code that arrived by link and waits for the user's consent to run. */
  sharedPending = $state(false);
  /** What waits is the code whose last run did not finish (the page stopped during it): it waits
   * for the user whoever wrote it. */
  unfinished = $state(false);
  /** A transient note next to the Share button. */
  shareNote = $state('');
  /** The embed code, shown for copying by hand when the clipboard refused it (null: hidden). */
  embedFallback = $state<string | null>(null);

  /** Counts the links loaded: a restore made for an older one stops at its next await. */
  private loadSeq = 0;
  /** Counts the hash writes: one overtaken by a newer one while it encodes is dropped. */
  private hashSeq = 0;
  /** The hash this app last loaded or wrote: a hashchange to it is not a new link. */
  private lastHash = '';
  /** The restore in flight (start and "Run shared code" may both ask for it). While it runs, the
   * hash keeps what the link carried. */
  private restoring: { seq: number; done: Promise<void> } | null = null;
  /** What the last link asked for beyond its program, applied after its recording. */
  private restorePosition: Position | null = null;
  private restoreEdits: readonly Edit[] = [];
  private hashTimer: ReturnType<typeof setTimeout> | undefined;
  /** Loads in the order the hash changed (decoding is asynchronous). */
  private loading: Promise<unknown> = Promise.resolve();

  private readonly env: LinkEnvironment;
  private readonly host: LinkHost;
  private readonly marks: RunMark | null;
  /** The last page of this tab stopped during a run, and the page's first program has not been
   * shown yet. */
  private unfinishedAtLoad: boolean;

  constructor(env: LinkEnvironment, host: LinkHost, marks: RunMark | null = null) {
    this.env = env;
    this.host = host;
    this.marks = marks;
    this.unfinishedAtLoad = marks?.unfinishedAtLoad ?? false;
  }

  /** Loads the page's hash, if it holds a link, and follows later changes of it. False when the
   * page was opened without a link. */
  async start(): Promise<boolean> {
    const fromLink = await this.load(this.env.hash());
    this.env.onHashChange(() => {
      const hash = this.env.hash();
      if (hash !== this.lastHash) void this.load(hash);
    });
    return fromLink;
  }

  /** Shows the link in `hash` (false when it holds none); a gallery example runs at once when the
   * engine is ready, anything else waits for "Run shared code". */
  load(hash: string): Promise<boolean> {
    const done = this.loading.then(() => this.loadNow(hash));
    this.loading = done.catch(() => undefined);
    return done;
  }

  private async loadNow(hash: string): Promise<boolean> {
    const shared = await decodeHash(hash);
    if (!shared) return false;
    this.loadSeq++;
    this.lastHash = hash;
    const example = this.host.show(shared);
    this.restorePosition = shared.position;
    this.restoreEdits = shared.edits;
    // A gallery example, call included, is the app's own code: it may run without asking, unless
    // the link adds Python of its own (conditions, watches, edits).
    const addsPython = Object.keys(shared.conditions).length + shared.watches.length + shared.edits.length > 0;
    const own = this.env.ownHash?.get() === hash;
    const unfinished = this.takeUnfinished();
    this.unfinished = unfinished;
    this.sharedPending = unfinished || (!this.env.embedded && !own && (!example || addsPython));
    if (!this.sharedPending && this.host.engineReady) void this.restore();
    return true;
  }

  /** The page opened without a link (its first example is shown): if the last page of the tab
   * stopped during a run, nothing runs until the user asks. */
  holdIfUnfinished(): void {
    if (!this.takeUnfinished()) return;
    this.unfinished = true;
    this.sharedPending = true;
  }

  /** Whether the program about to be shown first is the one that was running when the last page
   * of the tab stopped; once per page. */
  private takeUnfinished(): boolean {
    const was = this.unfinishedAtLoad;
    this.unfinishedAtLoad = false;
    return was;
  }

  /** The notice's button: the user agrees to run code that came by link (or whose last run did
   * not finish). */
  async runShared(): Promise<void> {
    if (!this.sharedPending) return;
    this.sharedPending = false;
    this.unfinished = false;
    if (!this.host.engineReady && !(await this.host.waitForEngine())) return;
    await this.restore();
  }

  /** Records, makes the link's edits and goes to its position (if it carried any). Without a
   * link, this is the first recording of the app. */
  restore(): Promise<void> {
    if (this.restoring?.seq === this.loadSeq) return this.restoring.done;
    const seq = this.loadSeq;
    // The whole restore is one run: its edits and its position are drawn before the mark goes.
    const restoring = this.marks ? this.marks.during(() => this.restoreNow(seq)) : this.restoreNow(seq);
    const done = restoring.finally(() => {
      if (this.restoring?.seq === seq) this.restoring = null;
      if (seq === this.loadSeq) this.schedule(0);
    });
    this.restoring = { seq, done };
    return done;
  }

  private async restoreNow(seq: number): Promise<void> {
    // Taken before any await: a link loaded meanwhile keeps its own (and waits for consent).
    const pos = this.restorePosition;
    const edits = this.restoreEdits;
    this.restorePosition = null;
    this.restoreEdits = [];
    const wanted = (): boolean => seq === this.loadSeq;
    await this.host.checkExpressions();
    if (!wanted()) return;
    const run = await this.host.record(wanted);
    if (!run || !wanted()) return;
    if (edits.length > 0) await run.replayEdits(edits, wanted);
    if (!wanted() || !run.current) return;
    if (pos !== null || edits.length > 0) run.goTo(pos);
  }

  /** Writes the hash soon (the session changed); nothing while a link waits or is restored. */
  schedule(delay = WRITE_DELAY_MS): void {
    if (this.held) return;
    clearTimeout(this.hashTimer);
    this.hashTimer = setTimeout(() => void this.write(), delay);
  }

  /** Copies a link to this session; the note says whether it worked. */
  async share(): Promise<void> {
    this.shareNote = '';
    await this.write();
    try {
      await this.env.copy(this.env.href());
      this.shareNote = 'Link copied';
    } catch {
      this.shareNote = 'Copy the link from the address bar';
    }
    this.fadeNote();
  }

  /** Copies an <iframe> snippet of this session for a course page (embed.ts); when the clipboard
   * refuses, the snippet is shown to copy by hand. */
  async copyEmbed(): Promise<void> {
    this.shareNote = '';
    await this.write();
    const snippet = embedSnippet(this.env.href());
    try {
      await this.env.copy(snippet);
      this.embedFallback = null;
      this.shareNote = 'Embed code copied';
    } catch {
      this.embedFallback = snippet;
      this.shareNote = 'Copy the embed code below';
    }
    this.fadeNote();
  }

  /** The full app on this session's link (an embed's "Open in ndb"). */
  fullAppHref(): string {
    return fullAppUrl(this.env.href());
  }

  private fadeNote(): void {
    const note = this.shareNote;
    setTimeout(() => {
      if (this.shareNote === note) this.shareNote = '';
    }, 4000);
  }

  /** While a link waits for consent or is being restored, the hash keeps what it carried. */
  private get held(): boolean {
    return this.sharedPending || this.restoring !== null;
  }

  private async write(): Promise<void> {
    if (this.held) return;
    clearTimeout(this.hashTimer);
    const seq = ++this.hashSeq;
    const hash = await encodeHash(this.host.snapshot());
    if (seq !== this.hashSeq || hash === this.env.hash()) return;
    this.lastHash = hash;
    this.env.replaceHash(hash);
    this.env.ownHash?.set(hash);
  }
}
