import { Subject, filter, type Observable } from 'rxjs';
import type { BusEvent, ConsoleBus } from '@linguaport/sdk/console';

/** The console's event bus: server pushes and in-console events, filtered by type. */
export class EventBus implements ConsoleBus {
  private readonly subject = new Subject<BusEvent>();

  events<T = unknown>(type?: string): Observable<BusEvent<T>> {
    const all = this.subject.asObservable() as Observable<BusEvent<T>>;
    return type === undefined ? all : all.pipe(filter((e) => e.type === type));
  }

  emit<T>(event: BusEvent<T>): void {
    this.subject.next(event as BusEvent);
  }
}
