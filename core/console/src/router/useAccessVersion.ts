import { useEffect, useState } from 'react';
import { merge } from 'rxjs';
import { useKernel } from '../container.js';

/** Re-render when menus, buttons or the session change (sign-in, department switch, logout). */
export function useAccessVersion(): number {
  const { permissions, session } = useKernel();
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const sub = merge(permissions.changes(), session.changes()).subscribe(() => setVersion((v) => v + 1));
    return () => sub.unsubscribe();
  }, [permissions, session]);
  return version;
}
