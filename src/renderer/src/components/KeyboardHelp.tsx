/**
 * The keyboard help: `?` (outside a text field) shows every shortcut the app has, Esc or `?`
 * hides it and gives focus back where it was. Esc closes the help first, not the release
 * detail under it.
 */
import { useEffect, useRef, useState } from 'react';
import { SHORTCUTS } from '../lib/shortcuts.js';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA');
}

/** Open state, toggled by `?` and closed by Esc (caught before the screens' own Esc). */
function useHelpKeys(): [boolean, () => void] {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '?' && !isTyping(e.target)) {
        e.preventDefault();
        setOpen((o) => !o);
      } else if (e.key === 'Escape' && open) {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);
  return [open, () => setOpen(false)];
}

/** Focus moves into the help as it opens and back to where it was as it closes. */
function useFocusReturn(open: boolean) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => before?.focus();
  }, [open]);
  return close;
}

export function KeyboardHelp() {
  const [open, hide] = useHelpKeys();
  const closeButton = useFocusReturn(open);
  if (!open) return null;
  return (
    <div className="keyboard-help-backdrop" onClick={hide}>
      <div
        className="keyboard-help"
        role="dialog"
        aria-modal="true"
        aria-labelledby="keyboard-help-title"
        onClick={(e) => e.stopPropagation()}
      >
        <header>
          <h2 id="keyboard-help-title">Keyboard shortcuts</h2>
          <button
            ref={closeButton}
            type="button"
            className="icon-button"
            aria-label="Close"
            onClick={hide}
          >
            ✕
          </button>
        </header>
        {SHORTCUTS.map((group) => (
          <section key={group.where} aria-label={group.where}>
            <h3>{group.where}</h3>
            <dl>
              {group.list.map((s) => (
                <div key={s.does}>
                  <dt>
                    {s.keys.map((k) => (
                      <kbd key={k}>{k}</kbd>
                    ))}
                  </dt>
                  <dd>{s.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </div>
  );
}
