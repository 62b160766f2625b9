/** The two pieces of the SQLite driver's turn-taking and group commit (see sqlite.ts). */

/** Queues the users of the writing connection in order. */
export class Mutex {
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.#held !== undefined) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  unlock(): void {
    const release = this.#release;
    this.#held = undefined;
    this.#release = undefined;
    release?.();
  }
}

/** Transactions whose changes one COMMIT makes durable, and what they wait on. */
export class Batch {
  /** Whether a transaction has run in it yet. */
  opened = false;
  readonly committed: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.committed = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A batch whose every transaction rolled back has nobody waiting on it.
    this.committed.catch(() => undefined);
  }
}
