/** Every request in flight, so a navigation while signed in can cancel them all (spec 01 2.6). */
export class CancelRegistry {
  private readonly pending = new Set<AbortController>();

  register(): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    this.pending.add(controller);
    return { signal: controller.signal, done: () => this.pending.delete(controller) };
  }

  get size(): number {
    return this.pending.size;
  }

  cancelAll(reason = 'navigation'): void {
    for (const controller of this.pending) controller.abort(reason);
    this.pending.clear();
  }
}
