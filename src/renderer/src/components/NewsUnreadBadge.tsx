import { useEffect } from 'react';
import { useApp, useNews, useStores } from '../state/index.js';
import { useAfterStartup } from '../state/use-after-startup.js';

/** The News entry's unread count; loads the first page once so it shows before News opens. */
export function NewsUnreadBadge() {
  const { news } = useStores();
  const settings = useApp((s) => s.settings);
  const culture = useNews((s) => s.culture);
  const unread = useNews((s) => s.unread);
  const ready = useAfterStartup();
  useEffect(() => {
    if (ready && settings && !culture)
      void news
        .getState()
        .setCulture(settings.cultures[0] ?? 'en-US')
        .catch(() => undefined);
  }, [ready, settings, culture, news]);
  if (unread === 0) return null;
  return (
    <span className="badge news-badge" aria-label={`${unread} unread`}>
      {unread > 99 ? '99+' : unread}
    </span>
  );
}
