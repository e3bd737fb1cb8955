/**
 * A first-come, first-served lock. PGlite is a single connection: a transaction's statements must
 * not interleave with anyone else's, so every user of the connection takes this lock first.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves once the lock is ours, with the function that gives it back. */
  lock(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const acquired = this.#tail.then(() => {
      let done = false;
      return () => {
        if (!done) {
          done = true;
          release();
        }
      };
    });
    this.#tail = this.#tail.then(() => released);
    return acquired;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const unlock = await this.lock();
    try {
      return await fn();
    } finally {
      unlock();
    }
  }
}
