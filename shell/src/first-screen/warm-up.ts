/**
 * Work the shell's start-up would otherwise do on the first screen's critical path, done instead in a task of its
 * own while the page still waits for its script files (on a phone's network, most of a second in which the main
 * thread is idle): the page's first `localStorage` read loads the site's stored data (the shopper's cart,
 * sign-in and theme, read before the first render). The first screen makes no `Intl` formatter, whose locale
 * data took a long task of its own here (@shop/state's `formatPrice`).
 */
export function warmUpWhileWaiting(): void {
  setTimeout(() => {
    try {
      void window.localStorage.length;
    } catch {
      // Storage may be blocked (privacy settings): the shell's own reads handle that; nothing to warm.
    }
  });
}
