import { CHANNELS, type Channel } from '@tradewind/contract/auth-basics';
import 'antd-mobile/es/components/tabs/tabs.css';
import { type CSSProperties, type KeyboardEvent, useLayoutEffect, useRef } from 'react';
import { useTranslation } from '@/lib/i18n.ts';

/**
 * Puts the active line under the active tab, as antd-mobile's Tabs does (its width, from its
 * left edge); it glides when the tab changes and follows when the title or the screen resizes.
 */
function useActiveLine(active: number) {
  const listRef = useRef<HTMLDivElement>(null);
  const lineRef = useRef<HTMLDivElement>(null);
  const placed = useRef(false);
  useLayoutEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelectorAll<HTMLElement>('[role="tab"]')[active];
    const line = lineRef.current;
    if (!list || !tab || !line) return;
    const place = (glide: boolean) => {
      line.style.transition = glide ? 'transform 0.2s, width 0.2s' : 'none';
      line.style.width = `${tab.offsetWidth}px`;
      line.style.transform = `translateX(${tab.offsetLeft}px)`;
    };
    place(placed.current);
    placed.current = true;
    // The title's own width, and its place in a list that stretches with the screen.
    const observer = new ResizeObserver(() => place(false));
    observer.observe(tab);
    observer.observe(list);
    return () => observer.disconnect();
  }, [active]);
  return { listRef, lineRef };
}

/**
 * Email or phone sub-tabs; switching clears the account field, whose format changes. The markup
 * and styles of antd-mobile's Tabs with its keyboard pattern (one focusable tab, arrow keys), in
 * a few lines of our own: antd-mobile's animates through react-spring, which the sign-in page
 * would otherwise download for this line alone.
 */
export function ChannelTabs({
  value,
  onChange,
  form,
}: {
  value: Channel;
  onChange: (channel: Channel) => void;
  form: { resetFields(names: string[]): void };
}) {
  const { t } = useTranslation();
  const active = CHANNELS.indexOf(value);
  const { listRef, lineRef } = useActiveLine(active);
  const select = (channel: Channel) => {
    if (channel === value) return;
    onChange(channel);
    form.resetFields(['account']);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = CHANNELS[(active + step + CHANNELS.length) % CHANNELS.length] as Channel;
    select(next);
    listRef.current?.querySelectorAll<HTMLElement>('[role="tab"]')[CHANNELS.indexOf(next)]?.focus();
  };
  return (
    <div
      className="adm-tabs"
      style={{ '--title-font-size': '15px', direction: 'ltr' } as CSSProperties}
    >
      <div className="adm-tabs-header">
        <div className="adm-tabs-tab-list" role="tablist" ref={listRef} onKeyDown={onKeyDown}>
          <div className="adm-tabs-tab-line" ref={lineRef} />
          {CHANNELS.map((channel) => (
            <div key={channel} className="adm-tabs-tab-wrapper adm-tabs-tab-wrapper-stretch">
              <div
                role="tab"
                aria-selected={channel === value}
                tabIndex={channel === value ? 0 : -1}
                className={channel === value ? 'adm-tabs-tab adm-tabs-tab-active' : 'adm-tabs-tab'}
                onClick={() => select(channel)}
              >
                {t(`auth.channel_${channel}`)}
              </div>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
