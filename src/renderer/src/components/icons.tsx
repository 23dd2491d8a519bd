/**
 * The app's icons, drawn as SVG rather than emoji or symbol glyphs: Linux and Windows
 * without a colour-emoji font show a box for 🔔, and glyphs differ from font to font.
 * All use currentColor, so they follow the theme and the selected state.
 */
import type { ReactNode } from 'react';

function Icon({ size = 16, children }: { size?: number; children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinejoin="round"
      strokeLinecap="round"
    >
      {children}
    </svg>
  );
}

export function BellIcon({ filled = false, size = 15 }: { filled?: boolean; size?: number }) {
  return (
    <Icon size={size}>
      <path
        d="M12 3a5 5 0 0 0-5 5v4.2L5.3 15a.7.7 0 0 0 .6 1h12.2a.7.7 0 0 0 .6-1L17 12.2V8a5 5 0 0 0-5-5zm-2 14.5a2 2 0 0 0 4 0z"
        fill={filled ? 'currentColor' : 'none'}
      />
    </Icon>
  );
}

export function CalendarIcon() {
  return (
    <Icon>
      <rect x="3.5" y="5" width="17" height="15" rx="2" />
      <path d="M3.5 10h17M8 3v4M16 3v4" />
    </Icon>
  );
}

export function NewsIcon() {
  return (
    <Icon>
      <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
      <path d="M7 9h10M7 12.5h10M7 16h6" />
    </Icon>
  );
}

export function GearIcon() {
  return (
    <Icon>
      <circle cx="12" cy="12" r="3" />
      <path d="M12 2.8v2.4M12 18.8v2.4M2.8 12h2.4M18.8 12h2.4M5.5 5.5l1.7 1.7M16.8 16.8l1.7 1.7M5.5 18.5l1.7-1.7M16.8 7.2l1.7-1.7" />
    </Icon>
  );
}
