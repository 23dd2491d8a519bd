/**
 * Post HTML comes from a third party: only plain document markup survives — no scripts,
 * event handlers, SVG/MathML, frames or forms; links only http(s)/mailto; remote images
 * only when the user allows them.
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
    if (el.tagName === 'A') {
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
    ],
    FORBID_ATTR: ['style', 'srcset'],
  });
  return { html: clean, blockedImages };
}

/** Search snippets: already escaped by the store, with <mark> around matches. */
export function sanitizeSnippet(html: string): string {
  return DOMPurify().sanitize(html, { ALLOWED_TAGS: ['mark'], ALLOWED_ATTR: [] });
}
