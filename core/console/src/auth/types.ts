/** Shapes of the sign-in and menu calls (spec 01 sections 3 and 7). */
export interface MenuEntry {
  id: number;
  path: string;
  permissionName: string;
  /** 4 = an external custom page shown in an iframe. */
  permissionType: number;
  icon?: string | null;
  sort?: number | null;
  configKey?: string | null;
  configValue?: string | number | null;
  children?: MenuEntry[] | null;
}

export interface ButtonPermission {
  id: number;
  permissionKey: string;
  path: string;
  permissionName: string;
}

export interface SystemConfigPermission {
  configKey: string;
  configValue: string | number | null;
}

export interface Department {
  id: number;
  departmentName: string;
}

export interface Role {
  id: number;
  roleName: string;
  path: string;
}

export interface UserInfo {
  user: { id: number; userId?: number | string; username: string; realName: string; userType: number; apiKey: string | null };
  departmentRoleBos: { department: Department; roles: Role[] }[];
}

export interface PermissionMenuList {
  menusPermissionMenus: MenuEntry[];
  buttonsPermissionMenus: ButtonPermission[];
  systemConfigPermissionMenus: SystemConfigPermission[];
  department?: Department | null;
}

export const PERMISSION_TYPE_CUSTOM = 4;
