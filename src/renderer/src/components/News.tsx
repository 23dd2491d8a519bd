import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { SearchHit } from '../../../shared/domain.js';
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

/** The search hits, newest first when asked (else by relevance); null: no search. */
function useSortedHits(): SearchHit[] | null {
  const rawHits = useNews((s) => s.hits);
  const sortByDate = useNews((s) => s.sortByDate);
  return useMemo(
    () =>
      rawHits && sortByDate
        ? [...rawHits].sort((a, b) => b.publicationDate.localeCompare(a.publicationDate))
        : rawHits,
    [rawHits, sortByDate],
  );
}

/** The first culture once settings are known, a story opened from elsewhere, the search typed. */
function useNewsSync(query: string) {
  const { news } = useStores();
  const culture = useNews((s) => s.culture);
  const settings = useApp((s) => s.settings);
  const openPost = useApp((s) => s.post);
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
}

function NewsHeader({ query, setQuery }: { query: string; setQuery: (q: string) => void }) {
  const { news } = useStores();
  const culture = useNews((s) => s.culture);
  const settings = useApp((s) => s.settings);
  return (
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
  );
}

function NewsTools({ searching }: { searching: boolean }) {
  const { news } = useStores();
  const unread = useNews((s) => s.unread);
  const unreadOnly = useNews((s) => s.unreadOnly);
  const tag = useNews((s) => s.tag);
  const sortByDate = useNews((s) => s.sortByDate);
  return (
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
      {searching && (
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
  );
}

/** The settings' zone and clock for the list's times. */
function useZone(): [string, 'h12' | 'h23'] {
  const settings = useApp((s) => s.settings);
  return [settings?.timeZone ?? 'system', settings?.hourCycle ?? 'h23'];
}

/** What every story of the list has, a search hit or a post. */
type Story = Pick<SearchHit, 'id' | 'culture' | 'title' | 'publicationDate'>;

/**
 * One story of the list: a post (`read`: its unread mark; `author` before the time) or a
 * search hit (`snippetHtml`: the matches in context).
 */
function StoryItem(props: {
  story: Story;
  read?: boolean;
  author?: string | null;
  snippetHtml?: string;
}) {
  const { story, read, author, snippetHtml } = props;
  const { news } = useStores();
  const current = useNews((s) => s.post);
  const [zone, hc] = useZone();
  const date = dateTimeLabel(story.publicationDate, zone, hc);
  const unread = read === false;
  return (
    <li>
      <button
        type="button"
        data-testid="post-item"
        className={`post-item${read ? ' read' : ''}${current?.id === story.id ? ' selected' : ''}`}
        onClick={() => void news.getState().open(story.id, story.culture)}
      >
        <span className="post-title">
          {unread && <span className="unread-dot" aria-hidden="true" />}
          {unread && <span className="sr-only">Unread: </span>}
          {story.title}
        </span>
        {snippetHtml !== undefined && (
          <span
            className="snippet"
            dangerouslySetInnerHTML={{ __html: sanitizeSnippet(snippetHtml) }}
          />
        )}
        <span className="meta">{author === undefined ? date : `${author ?? ''} · ${date}`}</span>
      </button>
    </li>
  );
}

/** j/k or ↓/↑ read the next or previous story, focus following the selection. */
function useListKeys(list: { id: string; culture: string }[]) {
  const { news } = useStores();
  const current = useNews((s) => s.post);
  return (e: KeyboardEvent<HTMLDivElement>) => {
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
}

function PostList({ hits, query }: { hits: SearchHit[] | null; query: string }) {
  const { news } = useStores();
  const items = useNews((s) => s.items);
  const total = useNews((s) => s.total);
  const page = useNews((s) => s.page);
  const onListKey = useListKeys(hits ?? items);
  return (
    <div className="post-list" onKeyDown={onListKey}>
      {hits && hits.length === 0 && <p className="muted pad">No cached story matches “{query}”.</p>}
      <ul
        className="plain-list"
        aria-label={hits ? 'Search results' : 'Latest news'}
        data-primary
        tabIndex={-1}
      >
        {hits
          ? hits.map((h) => (
              <StoryItem key={`${h.culture}:${h.id}`} story={h} snippetHtml={h.snippetHtml} />
            ))
          : items.map((p) => (
              <StoryItem
                key={`${p.culture}:${p.id}`}
                story={p}
                read={p.read}
                author={p.authorName}
              />
            ))}
      </ul>
      {!hits && items.length < total && (
        <button type="button" className="more" onClick={() => void news.getState().load(page + 1)}>
          Load more ({total - items.length} older)
        </button>
      )}
    </div>
  );
}

export function News() {
  const [query, setQuery] = useState('');
  useNewsSync(query);
  const hits = useSortedHits();
  return (
    <section className="news-screen" aria-label="News">
      <NewsHeader query={query} setQuery={setQuery} />
      <NewsTools searching={hits !== null} />
      <div className="news-body">
        <PostList hits={hits} query={query} />
        <Reader />
      </div>
    </section>
  );
}
