import { Classes } from '@blueprintjs/core';
import { createElement, type ReactNode } from 'react';
import type { PageHeaderProps } from './types.js';

/**
 * One header for every screen: the page's name as its heading (`h2` unless told `h1`), an optional
 * subtitle beside it and description under it, the actions on the right (they wrap under the
 * name when the page is narrow). Texts come translated from the plugin.
 */
export function PageHeader({ title, subtitle, description, actions, level = 2, testId = 'page-header' }: PageHeaderProps): ReactNode {
  return (
    <header className="lp-page-header" data-testid={testId}>
      <div className="lp-page-header-text">
        <div className="lp-page-header-name">
          {createElement(`h${level}`, { className: `${Classes.HEADING} lp-page-title`, 'data-testid': `${testId}-title` }, title)}
          {subtitle != null && subtitle !== false && <span className="lp-page-subtitle lp-muted" data-testid={`${testId}-subtitle`}>{subtitle}</span>}
        </div>
        {description != null && description !== false && <p className="lp-page-description lp-muted" data-testid={`${testId}-description`}>{description}</p>}
      </div>
      {actions != null && actions !== false && <div className="lp-page-actions" data-testid={`${testId}-actions`}>{actions}</div>}
    </header>
  );
}
