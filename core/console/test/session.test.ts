// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../src/auth/session.js';
import { backoffMs, socketUrl } from '../src/bus/ws-bridge.js';
import { CompanyConfig } from '../src/config/company.js';
import { pageTitle } from '../src/shell/title.js';

const info = {
  user: { id: 7, userId: 7, username: 'ann', realName: 'Ann', userType: 0, apiKey: null },
  departmentRoleBos: [
    { department: { id: 1, departmentName: 'Sales' }, roles: [{ id: 1, roleName: 'editor', path: '/term' }] },
    { department: { id: 2, departmentName: 'Legal' }, roles: [{ id: 2, roleName: 'reviewer', path: '/TM' }] },
  ],
};

function clearCookies() {
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0].trim();
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
}

describe('session (spec 01 sections 3 and 4)', () => {
  beforeEach(() => {
    clearCookies();
    sessionStorage.clear();
  });

  it('keeps the token in the lp_token cookie', () => {
    const s = new SessionStore();
    expect(s.token).toBeNull();
    s.setToken('abc');
    expect(document.cookie).toContain('lp_token=abc');
    expect(s.token).toBe('abc');
  });

  it('copies a department id from the cookie into session storage and picks its roles', () => {
    document.cookie = 'departmentId=2; path=/';
    const s = new SessionStore();
    s.setUserInfo(info);
    expect(sessionStorage.getItem('departmentId')).toBe('2');
    expect(sessionStorage.getItem('userId')).toBe('7');
    expect(s.current()).toMatchObject({ departmentId: 2, departmentName: 'Legal', roleNames: ['reviewer'] });
  });

  it('clears token, department cookie, user state and all session storage on reset', () => {
    const s = new SessionStore();
    s.setToken('abc');
    s.setUserInfo(info);
    s.chooseDepartment(1);
    sessionStorage.setItem('routersmenu', '[]');
    s.reset();
    expect(s.token).toBeNull();
    expect(s.departmentId).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(s.current().user).toBeNull();
  });
});

describe('WebSocket bridge helpers', () => {
  it('builds the socket address from the path and the token', () => {
    expect(socketUrl('/ws', 't 1', { protocol: 'https:', host: 'x.example' })).toBe('wss://x.example/ws?token=t%201');
    expect(socketUrl('ws://other:81/push?a=1', 't', { protocol: 'http:', host: 'x' })).toBe('ws://other:81/push?a=1&token=t');
  });

  it('backs off from 1 s doubling to at most 30 s', () => {
    expect([0, 1, 2, 5, 9].map(backoffMs)).toEqual([1000, 2000, 4000, 30000, 30000]);
  });
});

describe('company configuration and page title', () => {
  it('reads the theme colour, defaults and log-out flag', () => {
    const c = CompanyConfig.from([
      { configKey: 'SYSTEM_COLOR', configValue: '#123456' },
      { configKey: 'DEFAULT_SOURCE_LANGUAGE', configValue: null },
      { configKey: 'IS_HAVE_LOG_OUT', configValue: '1' },
    ]);
    expect(c.themeColor).toBe('#123456');
    expect(c.defaultSourceLanguage).toBe('');
    expect(c.hasLogout).toBe(true);
    expect(new CompanyConfig().themeColor).toBe('#353f9d');
    expect(new CompanyConfig().hasLogout).toBe(false);
  });

  it('joins the screen title and the site title', () => {
    expect(pageTitle('Term', 'LinguaPort')).toBe('Term - LinguaPort');
    expect(pageTitle('Term', '')).toBe('Term');
  });
});
