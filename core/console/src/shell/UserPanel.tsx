import { Button, HTMLSelect, Tooltip } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { SessionState } from '@linguaport/sdk/console';
import type { Department } from '../auth/types.js';

export const LOCAL_USER_TYPE = 0;

interface Props {
  state: SessionState;
  departments: Department[];
  showLogout: boolean;
  onSwitchDepartment(id: number): void;
  onEditProfile(): void;
  onSettings(): void;
  onLogout(): void;
}

/** Name, first role (all roles in a tooltip), department (a switch when several), profile, settings, log-out. */
export function UserPanel({ state, departments, showLogout, onSwitchDepartment, onEditProfile, onSettings, onLogout }: Props) {
  const { t } = useTranslation('core');
  const user = state.user;
  const roles = state.roleNames;
  return (
    <div className="lp-panel" data-testid="user-panel" role="dialog" aria-label={t('user.panel')}>
      <div className="lp-panel-row"><strong data-testid="user-panel-name">{user?.realName || user?.username}</strong></div>
      <div className="lp-panel-row">
        <span className="lp-muted">{t('user.role')}: </span>
        <Tooltip content={roles.join(', ') || t('user.noRole')} placement="bottom">
          <span data-testid="user-panel-role" title={roles.join(', ')}>{roles[0] ?? t('user.noRole')}</span>
        </Tooltip>
      </div>
      <div className="lp-panel-row">
        <span className="lp-muted">{t('shell.department')}: </span>
        {departments.length > 1 ? (
          <HTMLSelect
            minimal
            data-testid="department-switch"
            value={state.departmentId ?? ''}
            onChange={(e) => onSwitchDepartment(Number(e.currentTarget.value))}
            options={departments.map((d) => ({ value: d.id, label: d.departmentName }))}
          />
        ) : (
          <span data-testid="user-panel-department">{state.departmentName}</span>
        )}
      </div>
      <div className="lp-panel-actions">
        {user?.userType === LOCAL_USER_TYPE ? <Button variant="minimal" icon="edit" text={t('user.editProfile')} onClick={onEditProfile} data-testid="edit-profile" /> : null}
        <Button variant="minimal" icon="cog" text={t('user.settings')} onClick={onSettings} data-testid="user-settings" />
        {showLogout ? <Button variant="minimal" intent="danger" icon="log-out" text={t('shell.logout')} onClick={onLogout} data-testid="logout" /> : null}
      </div>
    </div>
  );
}
