import { useEffect, useMemo, useState } from 'react';
import { sanitizePost, sanitizeSnippet } from '../lib/sanitize.js';
import { dateTimeLabel } from '../lib/time.js';
import { useApp, useNews, useStores } from '../state/index.js';

function Reader() {
  const { bridge } = useStores();
  const post = useNews((s) => s.post);
  const settings = useApp((s) => s.settings);
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
      {post.summary && <p className="summary">{post.summary}</p>}
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
            <span key={t} className="tag">
              {t}
            </span>
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
  const hits = useNews((s) => s.hits);
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
      <div className="news-body">
        <div className="post-list">
          {hits && hits.length === 0 && (
            <p className="muted pad">No cached story matches “{query}”.</p>
          )}
          <ul className="plain-list" aria-label={hits ? 'Search results' : 'Latest news'}>
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
