import { Tag } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import type { StatusTagProps } from './types.js';

/** A coloured tag for a state value (enabled/disabled, checked/unchecked, success/failure). */
export function StatusTag({ value, states }: StatusTagProps): ReactNode {
  const state = states[String(value)];
  return (
    <Tag minimal intent={state?.intent ?? 'none'} data-status={String(value)}>
      {state?.label ?? String(value ?? '')}
    </Tag>
  );
}
