/**
 * The first tab stop: straight to the screen's main content (the calendar grid, the news
 * list), past the navigation and the filter chips. Screens mark that element `data-primary`.
 */
export function SkipLink() {
  return (
    <a
      className="skip-link"
      href="#content"
      onClick={(e) => {
        const target = document.querySelector<HTMLElement>('[data-primary]');
        if (!target) return;
        e.preventDefault();
        target.focus();
      }}
    >
      Skip to content
    </a>
  );
}
