/**
 * antd-mobile draws two controls as clickable elements a keyboard cannot reach: a List.Item
 * with onClick is an <a> without href, a Selector option is a <div>. This makes each focusable
 * (unless disabled) and lets Enter or Space click it, in one place for the whole app. The
 * option keeps its role; the list item, which has none, becomes a button. (Tabs need nothing:
 * antd-mobile's follow the tabs pattern, one focusable tab and the arrow keys.)
 */
const CLICKABLE = '.adm-list-item.adm-plain-anchor, .adm-selector-item';
const DISABLED = '.adm-list-item-disabled, .adm-selector-item-disabled';

export function makeWidgetsKeyboardOperable(root: HTMLElement): void {
  let scheduled = false;
  const mark = () => {
    scheduled = false;
    for (const el of root.querySelectorAll<HTMLElement>(CLICKABLE)) {
      // An option can become enabled after its data loads, so this is recomputed each time.
      const tabIndex = el.matches(DISABLED) ? -1 : 0;
      if (el.tabIndex !== tabIndex || !el.hasAttribute('tabindex')) el.tabIndex = tabIndex;
      if (!el.getAttribute('role')) el.setAttribute('role', 'button');
    }
  };
  // Once per frame at most: prices re-render several times a second.
  new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(mark);
  }).observe(root, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['class'],
  });
  mark();
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.matches(CLICKABLE)) return;
    event.preventDefault();
    target.click();
  });
}
