import { describe, expect, it } from 'vitest';
import { decide, departmentStep, isPublicPath, type GuardState } from '../src/auth/guard.js';

const menus = new Set(['/term', '/TM', '/catManager']);
const registryRoutes = new Set(['/term', '/TM', '/termHistory', '/catManagerInfo', '/datacorrectManagerInfo']);
const state = (over: Partial<GuardState> = {}): GuardState => ({
  hasToken: true,
  rolesLoaded: true,
  permitted: (p) => menus.has(p),
  firstPath: '/term',
  detailParents: { '/termHistory': '/term', '/catManagerInfo': '/catManager', '/datacorrectManagerInfo': '/datacorrectManager' },
  known: (p) => registryRoutes.has(p) || menus.has(p),
  ...over,
});

describe('navigation guard (spec 01 2.6)', () => {
  it('reloads the page on /sso', () => {
    expect(decide(state(), '/sso')).toEqual({ action: 'reload' });
    expect(decide(state({ hasToken: false }), '/sso')).toEqual({ action: 'reload' });
  });

  describe('not signed in', () => {
    const out = state({ hasToken: false, rolesLoaded: false });
    it.each(['/login', '/loginSelect', '/401', '/404', '/redirect/term', '/quickAccess'])('lets the public path %s pass', (p) => {
      expect(decide(out, p)).toEqual({ action: 'pass' });
    });
    it('sends any other path to the login page with a redirect', () => {
      expect(decide(out, '/term', '/term?id=3')).toEqual({ action: 'redirect', to: '/login?redirect=%2Fterm%3Fid%3D3' });
    });
  });

  describe('signed in, roles loaded', () => {
    it('sends /login and / to the first permitted menu path', () => {
      expect(decide(state(), '/login')).toEqual({ action: 'redirect', to: '/term' });
      expect(decide(state(), '/')).toEqual({ action: 'redirect', to: '/term' });
    });
    it('lets / pass to the empty state when no menu leads anywhere', () => {
      expect(decide(state({ firstPath: null }), '/')).toEqual({ action: 'pass' });
      expect(decide(state({ firstPath: null }), '/login')).toEqual({ action: 'redirect', to: '/' });
    });
    it('sends an unmatched path to /404', () => {
      expect(decide(state(), '/noSuchPage')).toEqual({ action: 'redirect', to: '/404' });
    });
    it('lets a permitted menu path pass', () => {
      expect(decide(state(), '/TM')).toEqual({ action: 'pass' });
    });
    it('sends a known but unpermitted path to the first permitted path', () => {
      expect(decide(state({ known: () => true }), '/user')).toEqual({ action: 'redirect', to: '/term', reason: 'forbidden' });
    });
    it('lets custom pages pass', () => {
      expect(decide(state(), '/custom', '/custom?url=http%3A%2F%2Fx&name=X')).toEqual({ action: 'pass' });
    });
    it('lets every signed-in user open their message list, with no menu granted; not a visitor', () => {
      expect(decide(state({ permitted: () => false, known: () => false, firstPath: null }), '/messages', '/messages?open=4')).toEqual({ action: 'pass' });
      expect(decide(state({ hasToken: false, rolesLoaded: false }), '/messages')).toEqual({ action: 'redirect', to: '/login?redirect=%2Fmessages' });
    });
    it('allows a detail path when its parent menu is permitted', () => {
      expect(decide(state(), '/termHistory')).toEqual({ action: 'pass' });
      expect(decide(state(), '/catManagerInfo')).toEqual({ action: 'pass' });
    });
    it('sends a detail path to the first permitted path when its parent is not permitted', () => {
      expect(decide(state(), '/datacorrectManagerInfo')).toEqual({ action: 'redirect', to: '/term', reason: 'forbidden' });
    });
    it('lets public pages pass', () => {
      expect(decide(state(), '/404')).toEqual({ action: 'pass' });
      expect(decide(state(), '/loginSelect')).toEqual({ action: 'pass' });
    });
  });

  describe('signed in, roles not loaded', () => {
    const fresh = state({ rolesLoaded: false });
    it('lets public paths pass', () => {
      expect(decide(fresh, '/login')).toEqual({ action: 'pass' });
      expect(decide(fresh, '/loginSelect')).toEqual({ action: 'pass' });
    });
    it('asks for user info and menus on any other path', () => {
      expect(decide(fresh, '/term')).toEqual({ action: 'load' });
      expect(decide(fresh, '/')).toEqual({ action: 'load' });
    });
    it('passes /loginSelect once user info is in', () => {
      expect(departmentStep('/loginSelect', null)).toEqual({ action: 'pass' });
    });
    it('sends a user without a chosen department to /loginSelect, keeping the target', () => {
      expect(departmentStep('/term', null, '/term?x=1')).toEqual({ action: 'redirect', to: '/loginSelect?redirect=%2Fterm%3Fx%3D1' });
      expect(departmentStep('/', null)).toEqual({ action: 'redirect', to: '/loginSelect' });
    });
    it('goes on to fetch menus when a department is chosen', () => {
      expect(departmentStep('/term', 7)).toBeNull();
    });
  });

  it('treats /redirect/* as public', () => {
    expect(isPublicPath('/redirect/term/x')).toBe(true);
    expect(isPublicPath('/redirector')).toBe(false);
  });
});
