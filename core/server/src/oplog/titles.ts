/**
 * The kernel's own operations in both languages, keyed as the log keeps them (`METHOD /url` under
 * `/api`); a plugin names its operations in its locale files, under `<namespace>.operations`.
 * A title may name parameters the line keeps (`{username}`).
 */
export const KERNEL_TITLES: Record<string, { zh: string; en: string }> = {
  'POST /permissionMenu/add': { zh: '新增权限节点', en: 'Add a permission node' },
  'PUT /permissionMenu/update': { zh: '修改权限节点', en: 'Edit a permission node' },
  'DELETE /permissionMenu/deleteBatch': { zh: '删除权限节点', en: 'Delete permission nodes' },
  'PUT /role/permissions/:roleId': { zh: '为角色授权', en: 'Grant permissions to a role' },
  'POST /user/register': { zh: '注册账户', en: 'Register an account' },
  'POST /quickAccess/create': { zh: '为用户创建快捷访问链接', en: 'Create a quick access link for a user' },
  'GET /user/updatePasswordForced': { zh: '修改密码（含已过期的密码）', en: 'Change a password (also when expired)' },
  'POST /user/checkPassword': { zh: '核对当前用户的密码', en: "Check the signed-in user's password" },
  'PUT /user/updateOwnProfile': { zh: '修改个人资料', en: 'Edit own profile' },
  'PUT /user/locale': { zh: '设置界面语言', en: 'Set own interface language' },
  'PUT /user/apiKeyScopes': { zh: '设置个人 API 密钥的范围', en: 'Set the scopes of own API key' },
  'POST /ldap/domains': { zh: '保存目录服务域', en: 'Save a directory domain' },
  'DELETE /ldap/domains/:symbol': { zh: '删除目录服务域', en: 'Delete a directory domain' },
  'POST /sso/providers': { zh: '保存单点登录提供方', en: 'Save a single sign-on provider' },
  'DELETE /sso/providers/:id': { zh: '删除单点登录提供方', en: 'Delete a single sign-on provider' },
  'POST /login': { zh: '登录', en: 'Sign in' },
  'POST /logout': { zh: '退出登录', en: 'Sign out' },
  'POST /user/switchDepartment': { zh: '切换部门', en: 'Switch department' },
  'POST /captcha/slider/verify': { zh: '完成滑块验证', en: 'Solve a slider captcha puzzle' },
  'POST /plugIn/upload': { zh: '上传插件包', en: 'Upload a plugin package' },
  'POST /plugIn/enable/:id': { zh: '启用或停用插件', en: 'Enable or disable a plugin' },
  'POST /plugIn/upgrade/:id': { zh: '将插件升级到上传的版本', en: 'Upgrade a plugin to its uploaded version' },
  'POST /plugIn/rollback/:id': { zh: '将插件回退到上一版本', en: 'Roll a plugin back to its previous version' },
  'DELETE /plugIn/delete/:id': { zh: '删除插件包', en: 'Delete a plugin package' },
  'POST /plugIn/publish/:id': { zh: '发布插件', en: 'Publish a plugin' },
  'POST /plugIn/unpublish/:id': { zh: '取消发布插件', en: 'Unpublish a plugin' },
  'POST /plugIn/trustedKeys': { zh: '信任插件签名密钥', en: 'Trust a plugin signing key' },
  'DELETE /plugIn/trustedKeys/:keyId': { zh: '移除受信任的插件签名密钥', en: 'Remove a trusted plugin signing key' },
  'POST /plugins/reportFailure': { zh: '报告控制台插件故障', en: 'Report a console plugin failure' },
  'PUT /systemConfig/updateConfig': { zh: '修改系统配置', en: 'Update system configuration' },
  'PUT /systemConfig/updateSystemConfig': { zh: '修改翻译设置', en: 'Update translation settings' },
  'POST /systemConfig/updatePictureConfig': { zh: '修改图片', en: 'Update a picture' },
  'PUT /messageRemind/updateMessages': { zh: '将消息标为已读', en: 'Mark messages read' },
  'DELETE /messageRemind/delete': { zh: '删除消息', en: 'Delete messages' },
  'POST /tasks/:id/cancel': { zh: '取消任务', en: 'Cancel a task' },
  // Not a route: written by the kernel when an administrator sets another user's password.
  'user.passwordChangedFor': { zh: '修改他人密码：{username}', en: "Change another user's password: {username}" },
};

