/** Stands in for the browser's IntersectionObserver: the test says when the elements come into view. */
export class FakeIntersectionObserver {
  /** Every observer made since the last `reset()`, in order. */
  static made: FakeIntersectionObserver[] = [];
  readonly observed: Element[] = [];
  disconnected = false;

  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.made.push(this);
  }

  static get last(): FakeIntersectionObserver | undefined {
    return FakeIntersectionObserver.made.at(-1);
  }

  static reset(): void {
    FakeIntersectionObserver.made = [];
  }

  observe(element: Element) {
    this.observed.push(element);
  }

  disconnect() {
    this.disconnected = true;
  }

  report(isIntersecting: boolean) {
    const entries = this.observed.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry);
    this.callback(entries, this as unknown as IntersectionObserver);
  }
}
