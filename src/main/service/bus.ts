/**
 * What the core tells its hosts, typed: one emitter per push of the contract
 * (`pushes.alert`, `pushes.notification`…, the list derived from PushPayloads), and the
 * core's own "the status changed" — any part may ask for a status push, and the status
 * reporter (built after the parts that ask) answers it, coalesced. Producers own their
 * events (the applier's `onDidCommit`, the alerts engine's `onDidNotify`…);
 * src/main/service/publish.ts connects them to these pushes.
 */
import { Emitter, type Event } from '../../shared/event.js';
import { createPushEmitters, type PushEmitters } from '../service-contract.js';

export class CorePushes {
  /** The pushes the hosts subscribe to (MacrobellService.on). */
  readonly pushes: PushEmitters;
  private readonly statusWanted: Emitter<void>;
  /** Someone asked for a status push (service/status.ts answers, coalesced). */
  readonly onStatusWanted: Event<void>;

  constructor(onListenerError?: (err: unknown) => void) {
    this.pushes = createPushEmitters(onListenerError);
    this.statusWanted = new Emitter<void>(onListenerError);
    this.onStatusWanted = this.statusWanted.event;
  }

  /** Ask for a status push (bursts become one: service/status.ts). */
  readonly statusChanged = (): void => this.statusWanted.fire();
}
