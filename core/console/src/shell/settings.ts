/**
 * The hidden settings panel's choices (spec 01 sections 3 and 9): theme colour, tags view, fixed
 * header, sidebar logo. Remembered per browser in localStorage; the theme colour defaults to the
 * company's SYSTEM_COLOR, the rest to the development defaults of section 9.
 */
export interface ShellSettings {
  themeColor: string | null;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
}

export const SETTINGS_KEY = 'lp_settings';
export const DEFAULT_SETTINGS: ShellSettings = { themeColor: null, tagsView: true, fixedHeader: false, sidebarLogo: false };

/** The palette offered in the panel (the second default of spec 01 section 9 and neighbours). */
export const THEME_PALETTE = ['#353f9d', '#51a8ea', '#1890ff', '#11a983', '#13c2c2', '#6959cd', '#f5222d', '#fa541c'];

export function loadSettings(storage: Pick<Storage, 'getItem'> | null = safeLocal()): ShellSettings {
  try {
    const raw = storage?.getItem(SETTINGS_KEY);
    if (!raw) return { ...DEFAULT_SETTINGS };
    const v = JSON.parse(raw) as Partial<ShellSettings>;
    return {
      themeColor: typeof v.themeColor === 'string' && /^#[0-9a-fA-F]{6}$/.test(v.themeColor) ? v.themeColor : null,
      tagsView: typeof v.tagsView === 'boolean' ? v.tagsView : DEFAULT_SETTINGS.tagsView,
      fixedHeader: typeof v.fixedHeader === 'boolean' ? v.fixedHeader : DEFAULT_SETTINGS.fixedHeader,
      sidebarLogo: typeof v.sidebarLogo === 'boolean' ? v.sidebarLogo : DEFAULT_SETTINGS.sidebarLogo,
    };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function saveSettings(settings: ShellSettings, storage: Pick<Storage, 'setItem'> | null = safeLocal()): void {
  storage?.setItem(SETTINGS_KEY, JSON.stringify(settings));
}

function safeLocal(): Storage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}
