/**
 * Post HTML comes from a third party: only plain document markup survives — no scripts,
 * event handlers, SVG/MathML, frames, forms or media elements; links (`<a>`, `<area>`)
 * only http(s)/mailto; remote images only when the user allows them. Attributes that
 * fetch by themselves (`background`, `poster`, `ping`…) never pass, and neither do `id`
 * and `name`, which would let post markup clobber globals of the page (DOM clobbering).
 */
import DOMPurify from 'dompurify';

const SAFE_URL = /^(https?:|mailto:)/i;

export interface SanitizeResult {
  html: string;
  blockedImages: number;
}

export function sanitizePost(html: string, allowRemoteImages: boolean): SanitizeResult {
  let blockedImages = 0;
  const purify = DOMPurify();
  purify.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    if (el.tagName === 'A' || el.tagName === 'AREA') {
      const href = el.getAttribute('href') ?? '';
      if (!SAFE_URL.test(href.trim())) el.removeAttribute('href');
      el.setAttribute('rel', 'noopener noreferrer');
      el.setAttribute('target', '_blank');
    }
    if (el.tagName === 'IMG') {
      const src = el.getAttribute('src') ?? '';
      if (!allowRemoteImages || !/^https:/i.test(src)) {
        el.removeAttribute('src');
        el.removeAttribute('srcset');
        blockedImages++;
      }
    }
  });
  const clean = purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
      'svg',
      'math',
      // Media fetch their sources (and posters) without asking: tracking pixels.
      'video',
      'audio',
      'source',
      'track',
      'picture',
      'link',
      'meta',
      'base',
    ],
    FORBID_ATTR: [
      'style',
      'srcset',
      'background',
      'poster',
      'ping',
      'lowsrc',
      'dynsrc',
      'longdesc',
      'id',
      'name',
    ],
  });
  return { html: clean, blockedImages };
}

/** Search snippets: already escaped by the store, with <mark> around matches. */
export function sanitizeSnippet(html: string): string {
  return DOMPurify().sanitize(html, { ALLOWED_TAGS: ['mark'], ALLOWED_ATTR: [] });
}

/** Text as a reader sees it: whitespace runs as one space, case and edges ignored. */
const plainText = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Whether a post's summary is just the first words of its (sanitized) body, as many
 * providers write it: then the reader shows the body alone instead of the sentence twice.
 */
export function bodyRepeatsSummary(summary: string, cleanHtml: string): boolean {
  const body = new DOMParser().parseFromString(cleanHtml, 'text/html').body.textContent ?? '';
  const lead = plainText(summary).replace(/[.…]+$/, '');
  return lead.length > 0 && plainText(body).startsWith(lead);
}
