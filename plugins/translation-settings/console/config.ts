import { useCallback, useEffect, useState } from 'react';
import { useApi, type ApiErrorInfo } from '@linguaport/sdk/console';

/** One entry of the kernel's `GET /systemConfig/getConfig`. */
export interface ConfigEntry {
  configKey: string;
  configValue: string | null;
  nameZh: string;
  nameEn: string;
  valueType: string;
}

export type ConfigLoad = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; entries: Map<string, ConfigEntry> };

export function useConfigGroup(group: string): [ConfigLoad, () => void] {
  const api = useApi();
  const [load, setLoad] = useState<ConfigLoad>({ state: 'loading' });
  const refresh = useCallback(() => {
    api
      .get<ConfigEntry[]>('/systemConfig/getConfig', { params: { group }, silent: true })
      .then((list) => setLoad({ state: 'ready', entries: new Map(list.map((e) => [e.configKey, e])) }))
      .catch((err: ApiErrorInfo) => setLoad({ state: 'failed', msg: err.msg }));
  }, [api, group]);
  useEffect(refresh, [refresh]);
  return [load, refresh];
}
