/** Toasts for the notifications the alerts engine emits, and the alert sounds (both hosts). */
import { useEffect, useRef } from 'react';
import { SOUND_LEVELS, type NativeNotification, type SoundLevel } from '../../../shared/domain.js';
import { acknowledge } from '../lib/acknowledge.js';
import { SOUND_URLS, soundLevelOf } from '../lib/sounds.js';
import { throwIfFault } from '../lib/test-faults.js';
import { useStores, useToasts } from '../state/index.js';
import { useAfterStartup } from '../state/use-after-startup.js';

function useAlertSound() {
  const { toasts, bridge } = useStores();
  const sound = useToasts((s) => s.sound);
  const players = useRef<Partial<Record<SoundLevel, HTMLAudioElement | null>>>({});
  // A layer started again after a failure does not play what was asked before it (the
  // fallback sounded that one).
  const askedBefore = useRef(toasts.getState().sound?.seq ?? 0);
  useEffect(() => {
    if (!sound || sound.seq <= askedBefore.current) return;
    // taken: a sound asked for from now on is a new one, not merged into this
    toasts.getState().soundPlayed(sound.seq);
    const player = players.current[sound.level];
    if (!player) return;
    player.currentTime = 0;
    // The browser may refuse before the first click on the page: the toast still shows.
    void Promise.resolve(player.play()).then(
      () => sound.for.forEach((n) => acknowledge(bridge, n, 'sound')),
      () => undefined,
    );
  }, [sound, toasts, bridge]);
  return players;
}

/** Each toast on screen tells the core it was shown (once: a re-render is no new showing). */
function useAcknowledgeToasts(items: { notification: NativeNotification }[]) {
  const { bridge } = useStores();
  const acknowledged = useRef(new Set<number>());
  useEffect(() => {
    for (const { notification: n } of items) {
      if (!n.deliveryId || acknowledged.current.has(n.deliveryId)) continue;
      acknowledged.current.add(n.deliveryId);
      acknowledge(bridge, n, 'toast');
    }
  }, [items, bridge]);
}

export function Toasts() {
  const { toasts } = useStores();
  const items = useToasts((s) => s.items);
  if (items.length > 0) throwIfFault('toasts-throw');
  useAcknowledgeToasts(items);
  const players = useAlertSound();
  // Loaded once the calendar is up (a play() before that loads the file itself).
  const preload = useAfterStartup() ? 'auto' : 'none';
  return (
    <>
      <section className="toasts" aria-label="Notifications" aria-live="polite">
        {items.map(({ id, notification: n }) => (
          <div
            key={id}
            className={`toast impact-${soundLevelOf(n).toLowerCase()}`}
            data-testid="toast"
            data-delivery-id={n.deliveryId}
          >
            <button type="button" className="toast-main" onClick={() => toasts.getState().open(id)}>
              <strong className="toast-title">{n.title}</strong>
              {n.body && <span className="toast-body">{n.body}</span>}
            </button>
            <button
              type="button"
              className="icon-button toast-close"
              aria-label={`Dismiss: ${n.title}`}
              onClick={() => toasts.getState().dismiss(id)}
            >
              ✕
            </button>
          </div>
        ))}
      </section>
      {SOUND_LEVELS.map((level) => (
        <audio
          key={level}
          ref={(el) => {
            players.current[level] = el;
          }}
          src={SOUND_URLS[level]}
          preload={preload}
          data-sound={level}
          hidden
        />
      ))}
    </>
  );
}
