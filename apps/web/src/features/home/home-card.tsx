import type { ReactNode } from 'react';

/** One of Home's cards: a headed section (the heading labels it), with an optional link or button beside the heading. */
export function HomeCard({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="tw-card" aria-labelledby={id}>
      <div className="tw-section-head">
        <h2 id={id}>{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}
