/**
 * The core's one event bus: the pushes the hosts subscribe to (ServiceEvents), and the
 * core's own `statusChanged` — any part may ask for a status push, and the status reporter
 * (built after the parts that ask) answers it, coalesced.
 */
import { EventEmitter } from 'node:events';
import type { ServiceEvents, Unsubscribe } from '../service-contract.js';

interface CoreEvents extends ServiceEvents {
  statusChanged: undefined;
}

export class CoreBus {
  private readonly emitter = new EventEmitter().setMaxListeners(100);

  emit<E extends keyof CoreEvents>(event: E, payload: CoreEvents[E]): void {
    this.emitter.emit(event, payload);
  }

  on<E extends keyof CoreEvents>(
    event: E,
    listener: (payload: CoreEvents[E]) => void,
  ): Unsubscribe {
    this.emitter.on(event, listener as (p: unknown) => void);
    return () => this.emitter.off(event, listener as (p: unknown) => void);
  }

  /** Ask for a status push (bursts become one: service/status.ts). */
  readonly statusChanged = (): void => this.emit('statusChanged', undefined);
}
