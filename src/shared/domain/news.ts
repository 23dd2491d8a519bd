/** News posts and what the news screen and search show of them. */

/** A news post, normalised from the v4 API's PascalCase. */
export interface Post {
  id: string;
  culture: string;
  title: string;
  summary: string | null;
  /** Third-party HTML: sanitise before showing. */
  contentHtml: string;
  /** ISO-8601 UTC. */
  publicationDate: string;
  updateDate: string | null;
  url: string | null;
  imageUrl: string | null;
  authorName: string | null;
  companyName: string | null;
  categories: string[];
  tags: string[];
}

export interface PostSummary {
  id: string;
  culture: string;
  title: string;
  summary: string | null;
  publicationDate: string;
  authorName: string | null;
  read: boolean;
}

export interface PostPage {
  items: PostSummary[];
  page: number;
  pageSize: number;
  total: number;
  /** Unread posts of the culture (whatever the view's filters). */
  unread: number;
}

export interface SearchHit {
  id: string;
  culture: string;
  title: string;
  /** Snippet with matches wrapped in <mark>…</mark>; everything else HTML-escaped. */
  snippetHtml: string;
  publicationDate: string;
}
