import { NonIdealState } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import type { EmptyStateProps } from './types.js';
import { useKitText } from './useKitText.js';

/** Nothing to show yet; no icon so no icon set is pulled in. */
export function EmptyState({ title, description, action }: EmptyStateProps): ReactNode {
  const { t } = useKitText();
  return <NonIdealState title={title ?? t('empty')} description={description} action={action as never} />;
}
