/**
 * The keyboard shortcuts the app has, by screen: what the `?` help lists. The handlers live
 * where they act (calendar/use-grid-keys.ts, News.tsx, HistoryChart.tsx); a shortcut added
 * there is added here.
 */
export interface Shortcut {
  keys: string[];
  does: string;
}

export const SHORTCUTS: { where: string; list: Shortcut[] }[] = [
  {
    where: 'Anywhere',
    list: [
      { keys: ['?'], does: 'Show or hide this help' },
      { keys: ['Esc'], does: 'Close this help, or the release detail' },
    ],
  },
  {
    where: 'Calendar',
    list: [
      { keys: ['↓', 'j'], does: 'Next release' },
      { keys: ['↑', 'k'], does: 'Previous release' },
      { keys: ['PgDn', 'PgUp'], does: 'A screenful down or up' },
      { keys: ['Home', 'End'], does: 'First or last release' },
      { keys: ['Enter'], does: 'Open the release’s detail' },
      { keys: ['w'], does: 'Watch or unwatch the release' },
      { keys: ['/'], does: 'Filter by name' },
    ],
  },
  {
    where: 'Release detail chart',
    list: [{ keys: ['←', '→'], does: 'Previous or next print' }],
  },
  {
    where: 'News',
    list: [
      { keys: ['↓', 'j'], does: 'Next story' },
      { keys: ['↑', 'k'], does: 'Previous story' },
    ],
  },
];
