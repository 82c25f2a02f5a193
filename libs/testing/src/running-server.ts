/** A server a test may connect to; `stop()` releases it (a no-op for servers the test did not start). */
export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}
