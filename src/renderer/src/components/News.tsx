import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { bodyRepeatsSummary, sanitizePost, sanitizeSnippet } from '../lib/sanitize.js';
import { dateTimeLabel } from '../lib/time.js';
import { useApp, useNews, useStores } from '../state/index.js';

function Reader() {
  const { bridge, news } = useStores();
  const post = useNews((s) => s.post);
  const settings = useApp((s) => s.settings);
  const demo = useApp((s) => s.status?.demo ?? false);
  const clean = useMemo(
    () => (post ? sanitizePost(post.contentHtml, settings?.allowRemoteImages ?? false) : null),
    [post, settings?.allowRemoteImages],
  );
  if (!post || !clean)
    return (
      <div className="reader empty muted">
        Select a story to read it — cached stories stay readable offline.
      </div>
    );
  const onClick = (e: React.MouseEvent) => {
    const a = (e.target as HTMLElement).closest('a');
    if (!a) return;
    e.preventDefault();
    const href = a.getAttribute('href');
    if (!href) return;
    if (bridge.kind === 'ipc') void bridge.api.openExternal({ url: href }).catch(() => undefined);
    else window.open(href, '_blank', 'noopener,noreferrer');
  };
  return (
    <article className="reader" data-testid="post-reader" aria-label={post.title}>
      {/* the simulator's stories are invented: say so where they are read */}
      {demo && (
        <p className="demo-story" data-testid="demo-story">
          Demo story — invented text, not market news
        </p>
      )}
      <h2>{post.title}</h2>
      <p className="byline">
        {post.authorName ?? post.companyName ?? 'Unknown author'} ·{' '}
        {dateTimeLabel(
          post.publicationDate,
          settings?.timeZone ?? 'system',
          settings?.hourCycle ?? 'h23',
        )}
        {post.updateDate && ' · updated'}
      </p>
      {post.summary && !bodyRepeatsSummary(post.summary, clean.html) && (
        <p className="summary">{post.summary}</p>
      )}
      {clean.blockedImages > 0 && (
        <p className="notice">Images blocked — allow remote images in Settings.</p>
      )}
      {/* Sanitized by DOMPurify above: no scripts, handlers, SVG or javascript: links. */}
      <div
        className="post-body"
        onClick={onClick}
        dangerouslySetInnerHTML={{ __html: clean.html }}
      />
      {post.tags.length > 0 && (
        <p className="tags">
          {post.tags.map((t) => (
            <button
              key={t}
              type="button"
              className="tag"
              aria-label={`Stories tagged ${t}`}
              onClick={() => void news.getState().setView({ tag: t })}
            >
              {t}
            </button>
          ))}
        </p>
      )}
    </article>
  );
}

export function News() {
  const { news } = useStores();
  const items = useNews((s) => s.items);
  const total = useNews((s) => s.total);
  const page = useNews((s) => s.page);
  const rawHits = useNews((s) => s.hits);
  const sortByDate = useNews((s) => s.sortByDate);
  const unread = useNews((s) => s.unread);
  const unreadOnly = useNews((s) => s.unreadOnly);
  const tag = useNews((s) => s.tag);
  const hits = useMemo(
    () =>
      rawHits && sortByDate
        ? [...rawHits].sort((a, b) => b.publicationDate.localeCompare(a.publicationDate))
        : rawHits,
    [rawHits, sortByDate],
  );
  const current = useNews((s) => s.post);
  const culture = useNews((s) => s.culture);
  const settings = useApp((s) => s.settings);
  const openPost = useApp((s) => s.post);
  const [query, setQuery] = useState('');

  useEffect(() => {
    if (settings && !culture) void news.getState().setCulture(settings.cultures[0] ?? 'en-US');
  }, [settings, culture, news]);
  useEffect(() => {
    if (openPost) void news.getState().open(openPost.id, openPost.culture);
  }, [openPost, news]);
  useEffect(() => {
    const t = setTimeout(() => void news.getState().search(query), 200);
    return () => clearTimeout(t);
  }, [query, news]);

  const zone = settings?.timeZone ?? 'system';
  const hc = settings?.hourCycle ?? 'h23';
  const list: { id: string; culture: string }[] = hits ?? items;
  // j/k or ↓/↑ read the next or previous story, focus following the selection
  const onListKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const d =
      e.key === 'j' || e.key === 'ArrowDown' ? 1 : e.key === 'k' || e.key === 'ArrowUp' ? -1 : 0;
    if (!d || list.length === 0) return;
    e.preventDefault();
    const at = current ? list.findIndex((p) => p.id === current.id) : -1;
    const next = list[Math.max(0, Math.min(list.length - 1, at + d))];
    if (!next) return;
    void news.getState().open(next.id, next.culture);
    const buttons = e.currentTarget.querySelectorAll<HTMLElement>('[data-testid=post-item]');
    buttons[list.indexOf(next)]?.focus();
  };
  return (
    <section className="news-screen" aria-label="News">
      <header className="screen-header">
        <h1>News</h1>
        <input
          type="search"
          aria-label="Search news"
          placeholder="Search cached news"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {settings && settings.cultures.length > 1 && (
          <label className="select">
            <span className="sr-only">Culture</span>
            <select
              value={culture ?? ''}
              onChange={(e) => void news.getState().setCulture(e.target.value)}
            >
              {settings.cultures.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
        )}
      </header>
      <div className="news-tools" role="toolbar" aria-label="News view">
        <span className="unread-count" data-testid="news-unread">
          {unread} unread
        </span>
        <button
          type="button"
          className="chip"
          aria-pressed={unreadOnly}
          onClick={() => void news.getState().setView({ unreadOnly: !unreadOnly })}
        >
          Unread only
        </button>
        <button
          type="button"
          className="chip"
          disabled={unread === 0}
          onClick={() => void news.getState().markAllRead()}
        >
          Mark all read
        </button>
        {tag && (
          <button
            type="button"
            className="chip"
            aria-pressed="true"
            aria-label={`Tag ${tag}: show all stories`}
            onClick={() => void news.getState().setView({ tag: null })}
          >
            Tag: {tag} ✕
          </button>
        )}
        {hits && (
          <button
            type="button"
            className="chip"
            aria-pressed={sortByDate}
            onClick={() => news.getState().setSortByDate(!sortByDate)}
          >
            Newest first
          </button>
        )}
      </div>
      <div className="news-body">
        <div className="post-list" onKeyDown={onListKey}>
          {hits && hits.length === 0 && (
            <p className="muted pad">No cached story matches “{query}”.</p>
          )}
          <ul
            className="plain-list"
            aria-label={hits ? 'Search results' : 'Latest news'}
            data-primary
            tabIndex={-1}
          >
            {hits
              ? hits.map((h) => (
                  <li key={`${h.culture}:${h.id}`}>
                    <button
                      type="button"
                      data-testid="post-item"
                      className={`post-item${current?.id === h.id ? ' selected' : ''}`}
                      onClick={() => void news.getState().open(h.id, h.culture)}
                    >
                      <span className="post-title">{h.title}</span>
                      <span
                        className="snippet"
                        dangerouslySetInnerHTML={{ __html: sanitizeSnippet(h.snippetHtml) }}
                      />
                      <span className="meta">{dateTimeLabel(h.publicationDate, zone, hc)}</span>
                    </button>
                  </li>
                ))
              : items.map((p) => (
                  <li key={`${p.culture}:${p.id}`}>
                    <button
                      type="button"
                      data-testid="post-item"
                      className={`post-item${p.read ? ' read' : ''}${current?.id === p.id ? ' selected' : ''}`}
                      onClick={() => void news.getState().open(p.id, p.culture)}
                    >
                      <span className="post-title">
                        {!p.read && <span className="unread-dot" aria-hidden="true" />}
                        {!p.read && <span className="sr-only">Unread: </span>}
                        {p.title}
                      </span>
                      <span className="meta">
                        {p.authorName ?? ''} · {dateTimeLabel(p.publicationDate, zone, hc)}
                      </span>
                    </button>
                  </li>
                ))}
          </ul>
          {!hits && items.length < total && (
            <button
              type="button"
              className="more"
              onClick={() => void news.getState().load(page + 1)}
            >
              Load more ({total - items.length} older)
            </button>
          )}
        </div>
        <Reader />
      </div>
    </section>
  );
}
