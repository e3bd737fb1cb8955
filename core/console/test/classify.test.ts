import { describe, expect, it } from 'vitest';
import { classifyResponse } from '../src/http/classify.js';

const env = (code: number, msg = '', data: unknown = null) => ({ code, msg, data });
const at = (status: number, body: unknown, pathname = '/term', silent = false) => classifyResponse({ status, body, pathname, silent });

describe('the error catalogue of spec 01 section 8', () => {
  it('rejects an HTTP status other than 200 or 201 with a toast of the message', () => {
    const c = at(500, env(500, 'database down'));
    expect(c.settle).toBe('reject');
    expect(c.toast).toEqual({ intent: 'danger', text: 'database down' });
    expect(c.code).toBe(500);
  });

  it("shows 'Error' for a failing HTTP status without a message", () => {
    const c = at(502, '<html>bad gateway</html>');
    expect(c.settle).toBe('reject');
    expect(c.toast).toEqual({ intent: 'danger', key: 'http.error' });
  });

  it('accepts HTTP 201 like 200', () => {
    expect(at(201, env(200, 'ok', { id: 1 })).settle).toBe('data');
  });

  it('passes a body without a code through untouched', () => {
    const c = at(200, 'plain text');
    expect(c.settle).toBe('body');
    expect(c.toast).toBeNull();
  });

  it('settles code 200 with its data and no toast', () => {
    const c = at(200, env(200, 'success', [1]));
    expect(c).toMatchObject({ settle: 'data', toast: null, endSession: false });
  });

  it('maps 304 Bad credentials to the wrong-account-or-password message', () => {
    const c = at(200, env(304, 'Bad credentials'));
    expect(c.settle).toBe('reject');
    expect(c.toast?.key).toBe('http.badCredentials');
  });

  it('maps 304 Bad credentials as a Chinese request gets it to the same message', () => {
    const c = at(200, env(304, '用户名或密码错误'));
    expect(c.settle).toBe('reject');
    expect(c.toast?.key).toBe('http.badCredentials');
  });

  it('maps 304 full-authentication-required to the authentication-failure message', () => {
    const c = at(200, env(304, 'Full authentication is required to access this resource'));
    expect(c.settle).toBe('reject');
    expect(c.toast?.key).toBe('http.authFailed');
  });

  it('shows the server message of any other 304', () => {
    const c = at(200, env(304, 'This account is disabled'));
    expect(c.settle).toBe('reject');
    expect(c.toast).toEqual({ intent: 'danger', text: 'This account is disabled' });
  });

  it('shows 4014 and returns the envelope to the caller', () => {
    const c = at(200, env(4014, 'change your password'));
    expect(c.settle).toBe('envelope');
    expect(c.toast?.text).toBe('change your password');
  });

  it.each([3027, 4015, 2067])('returns code %i silently to the caller', (code) => {
    const c = at(200, env(code, 'anything'));
    expect(c.settle).toBe('envelope');
    expect(c.toast).toBeNull();
    expect(c.endSession).toBe(false);
  });

  it('ends the session on 601, reloads and shows login-expired', () => {
    const c = at(200, env(601, 'token expired'));
    expect(c).toMatchObject({ settle: 'reject', endSession: true, reload: true });
    expect(c.toast?.key).toBe('http.loginExpired');
  });

  it('does not reload on /quickAccess when the session ends', () => {
    const c = at(200, env(601, ''), '/quickAccess');
    expect(c.endSession).toBe(true);
    expect(c.reload).toBe(false);
  });

  it('shows the message of any other code, or Error, and rejects', () => {
    expect(at(200, env(409, 'term exists'))).toMatchObject({ settle: 'reject', toast: { text: 'term exists' } });
    expect(at(200, env(400, ''))).toMatchObject({ settle: 'reject', toast: { key: 'http.error' } });
  });

  it('suppresses toasts for a silent call but still ends an invalid session', () => {
    expect(at(200, env(409, 'term exists'), '/term', true).toast).toBeNull();
    const c = at(200, env(601, ''), '/term', true);
    expect(c.endSession).toBe(true);
  });
});
