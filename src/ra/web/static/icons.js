// The page's own small icons, drawn inline in the text's colour: an emoji (a bell, a chart) needs an
// emoji font, and where none is installed it draws as an empty box (tests/web/test_browser_issue41.py
// keeps emoji out of the static files).
const PATHS = {
  // A bell: its body, its rim and its clapper.
  bell: '<path d="M12 3a1.5 1.5 0 0 1 1.5 1.5v.6A6 6 0 0 1 18 11v4l2 2.5V19H4v-1.5L6 15v-4a6 6 0 0 1 4.5-5.9v-.6A1.5 1.5 0 0 1 12 3z"/><path d="M9.5 20.2h5a2.5 2.5 0 0 1-5 0z"/>',
  // A chart: two axes and a line going up.
  chart: '<path d="M4 3v17h17" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/><path d="M7.5 15.5l4-4.5 3 2.5 5-6" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>',
};

/** An icon as inline SVG, hidden from screen readers (the words beside it say what it is). */
export function icon(name) {
  return `<svg class="icon icon-${name}" viewBox="0 0 24 24" width="16" height="16" fill="currentColor" aria-hidden="true" focusable="false">${PATHS[name]}</svg>`;
}
