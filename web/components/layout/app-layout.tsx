import type { ReactNode } from 'react';
import { Sidebar } from './sidebar';

/** Sidebar plus the main view with a page heading. */
export function AppLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="layout">
      <Sidebar />
      <main className="layout__main">
        <header className="layout__header">
          <h1 className="layout__title" title={title}>
            {title}
          </h1>
        </header>
        <div className="layout__content">{children}</div>
      </main>
    </div>
  );
}
