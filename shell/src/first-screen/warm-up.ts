/**
 * Work the shell's start-up would otherwise do on the first screen's critical path, done instead in a task of its
 * own while the page still waits for its script files (on a phone's network, most of a second in which the main
 * thread is idle): the page's first `Intl` formatter loads the browser's locale data (tens of milliseconds even
 * on a desktop; @shop/state's price format makes one as it loads), and its first `localStorage` read loads the
 * site's stored data (the shopper's cart, sign-in and theme, read before the first render).
 */
export function warmUpWhileWaiting(): void {
  setTimeout(() => {
    try {
      new Intl.NumberFormat('en-US').format(0);
      void window.localStorage.length;
    } catch {
      // Storage may be blocked (privacy settings): the shell's own reads handle that; nothing to warm.
    }
  });
}
