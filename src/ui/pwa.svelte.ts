// The page's side of the service worker (src/sw.ts): registration, the one reload that makes the
// page cross-origin isolated on hosts without COOP/COEP headers, "ready to work offline", the
// notice when a new version is deployed, and the install prompt.

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** Set for the rest of the tab's life once the page reloaded to get the headers (no reload loop). */
const RELOADED_KEY = 'ndb-isolation-reload';

export type OfflineState = 'unsupported' | 'pending' | 'caching' | 'ready' | 'failed';

export class Pwa {
  /** The browser offered installation (`beforeinstallprompt`). */
  canInstall = $state(false);
  /** A new version is installed and waits for "Reload". */
  needRefresh = $state(false);
  offline = $state<OfflineState>('unsupported');
  offlineError = $state<string | null>(null);
  /** SharedArrayBuffer works: Pyodide's interrupt and threads for the model. */
  readonly isolated: boolean = globalThis.crossOriginIsolated === true;

  private deferred: BeforeInstallPromptEvent | null = null;
  private registration: ServiceWorkerRegistration | null = null;
  private updateRequested = false;
  private reloading = false;
  private fillRequested = false;

  start(): void {
    window.addEventListener('beforeinstallprompt', (ev) => {
      ev.preventDefault();
      this.deferred = ev as BeforeInstallPromptEvent;
      this.canInstall = true;
    });
    window.addEventListener('appinstalled', () => {
      this.deferred = null;
      this.canInstall = false;
    });
    if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !window.isSecureContext) return;
    const container = navigator.serviceWorker;
    this.offline = 'pending';
    container.addEventListener('message', (ev: MessageEvent<{ type?: string; message?: string }>) => {
      if (ev.data?.type === 'ndb-offline-ready') {
        this.offline = 'ready';
        this.offlineError = null;
      } else if (ev.data?.type === 'ndb-offline-failed') {
        this.offline = 'failed';
        this.offlineError = ev.data.message ?? null;
        this.fillRequested = false;
      }
    });
    container.addEventListener('controllerchange', () => {
      if (this.reloading) return;
      if (this.updateRequested) return this.reload('update');
      // First visit on a host without COOP/COEP: the worker now adds them; reload once to get them.
      // A page in a frame (an embed in a course page) cannot be isolated by its own headers.
      if (!this.isolated && window.self === window.top && !sessionStorage.getItem(RELOADED_KEY)) {
        sessionStorage.setItem(RELOADED_KEY, '1');
        return this.reload('isolation');
      }
      if (this.fillRequested) this.postFill();
    });
    container.startMessages();
    const base = import.meta.env.BASE_URL;
    container
      .register(`${base}sw.js`, { scope: base })
      .then((reg) => {
        this.registration = reg;
        if (reg.waiting && container.controller) this.needRefresh = true;
        reg.addEventListener('updatefound', () => {
          const next = reg.installing;
          next?.addEventListener('statechange', () => {
            if (next.state === 'installed' && container.controller) this.needRefresh = true;
          });
        });
        // Deployments are noticed on each visit; a long-open tab checks hourly.
        setInterval(() => void reg.update().catch(() => undefined), 60 * 60 * 1000);
      })
      .catch((err: unknown) => {
        this.offline = 'failed';
        this.offlineError = err instanceof Error ? err.message : String(err);
      });
  }

  /** Asks the service worker to store everything for offline use (called once the app has loaded,
   * so that it does not compete with the first load). */
  fill(): void {
    if (this.fillRequested || this.offline === 'unsupported') return;
    this.fillRequested = true;
    if (navigator.serviceWorker.controller) this.postFill();
  }

  private postFill(): void {
    this.offline = 'caching';
    void navigator.serviceWorker.ready.then((reg) => reg.active?.postMessage({ type: 'ndb-fill' }));
  }

  /** "Reload": the waiting version takes over, then the page reloads. */
  applyUpdate(): void {
    const waiting = this.registration?.waiting;
    if (!waiting) return this.reload('update');
    this.updateRequested = true;
    waiting.postMessage({ type: 'SKIP_WAITING' });
  }

  async install(): Promise<void> {
    const ev = this.deferred;
    if (!ev) return;
    this.deferred = null;
    this.canInstall = false;
    await ev.prompt();
    await ev.userChoice.catch(() => undefined);
  }

  private reload(_why: 'update' | 'isolation'): void {
    this.reloading = true;
    location.reload();
  }
}
