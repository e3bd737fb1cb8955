import { describe, expect, it } from 'vitest';
import { compareVersions, isValidRange, parseVersion, satisfies } from '../../src/shared/semver.js';

describe('parseVersion', () => {
  it('reads x.y.z with an optional v and ignores build or pre-release text', () => {
    expect(parseVersion('1.2.3')).toEqual([1, 2, 3]);
    expect(parseVersion(' v10.0.1 ')).toEqual([10, 0, 1]);
    expect(parseVersion('1.2.3-beta.1')).toEqual([1, 2, 3]);
  });
  it.each(['1.2', '1', 'a.b.c', '', '1.2.3.4'])('rejects %j', (t) => expect(parseVersion(t)).toBeNull());
});

describe('satisfies', () => {
  it('handles caret ranges', () => {
    expect(satisfies('1.0.0', '^1.0.0')).toBe(true);
    expect(satisfies('1.9.9', '^1.2.0')).toBe(true);
    expect(satisfies('1.1.9', '^1.2.0')).toBe(false);
    expect(satisfies('2.0.0', '^1.2.0')).toBe(false);
    expect(satisfies('0.2.9', '^0.2.3')).toBe(true);
    expect(satisfies('0.3.0', '^0.2.3')).toBe(false);
    expect(satisfies('0.0.3', '^0.0.3')).toBe(true);
    expect(satisfies('0.0.4', '^0.0.3')).toBe(false);
    expect(satisfies('1.5.0', '^1.2')).toBe(true);
  });

  it('reads a caret with missing parts as npm does', () => {
    expect(satisfies('0.5.0', '^0')).toBe(true);
    expect(satisfies('1.0.0', '^0')).toBe(false);
    expect(satisfies('0.0.9', '^0.0')).toBe(true);
    expect(satisfies('0.1.0', '^0.0')).toBe(false);
    expect(satisfies('7.1.2', '^*')).toBe(true);
  });

  it('handles tilde ranges', () => {
    expect(satisfies('1.2.9', '~1.2.3')).toBe(true);
    expect(satisfies('1.2.2', '~1.2.3')).toBe(false);
    expect(satisfies('1.3.0', '~1.2.3')).toBe(false);
    expect(satisfies('1.2.0', '~1.2')).toBe(true);
    expect(satisfies('1.9.0', '~1')).toBe(true);
    expect(satisfies('2.0.0', '~1')).toBe(false);
  });

  it('handles >= and < together', () => {
    expect(satisfies('1.0.0', '>=1.0.0 <2.0.0')).toBe(true);
    expect(satisfies('1.99.0', '>=1.0.0 <2.0.0')).toBe(true);
    expect(satisfies('2.0.0', '>=1.0.0 <2.0.0')).toBe(false);
    expect(satisfies('0.9.9', '>=1.0.0 <2.0.0')).toBe(false);
    expect(satisfies('1.0.0', '>= 1.0.0 < 2')).toBe(true);
  });

  it('reads > and <= with a partial version as covering all of its releases', () => {
    expect(satisfies('1.2.5', '>1.2')).toBe(false);
    expect(satisfies('1.3.0', '>1.2')).toBe(true);
    expect(satisfies('1.2.5', '<=1.2')).toBe(true);
    expect(satisfies('1.3.0', '<=1.2')).toBe(false);
    expect(satisfies('1.2.4', '>1.2.3')).toBe(true);
    expect(satisfies('1.2.3', '<=1.2.3')).toBe(true);
    expect(satisfies('1.2.4', '<=1.2.3')).toBe(false);
  });

  it('handles x-ranges and exact versions', () => {
    expect(satisfies('1.4.2', '1.x')).toBe(true);
    expect(satisfies('2.0.0', '1.x')).toBe(false);
    expect(satisfies('1.2.7', '1.2.x')).toBe(true);
    expect(satisfies('1.3.0', '1.2.*')).toBe(false);
    expect(satisfies('9.9.9', '*')).toBe(true);
    expect(satisfies('9.9.9', 'x')).toBe(true);
    expect(satisfies('1.2.3', '1.2.3')).toBe(true);
    expect(satisfies('1.2.4', '=1.2.3')).toBe(false);
  });

  it('accepts a version matching any || alternative', () => {
    expect(satisfies('1.5.0', '^1.0.0 || ^2.0.0')).toBe(true);
    expect(satisfies('2.1.0', '^1.0.0 || ^2.0.0')).toBe(true);
    expect(satisfies('3.0.0', '^1.0.0 || ^2.0.0')).toBe(false);
  });

  it('never matches an invalid version or an invalid range', () => {
    expect(satisfies('one', '*')).toBe(false);
    expect(satisfies('1.0', '^1.0.0')).toBe(false);
    expect(satisfies('1.0.0', '^one')).toBe(false);
    expect(satisfies('1.0.0', '>=1.0.0 banana')).toBe(false);
  });
});

describe('pre-releases, as npm reads them', () => {
  it('matches a range only when the range names a pre-release of the same x.y.z', () => {
    expect(satisfies('1.1.0-beta.1', '^1.0.0')).toBe(false);
    expect(satisfies('1.0.0-beta', '>=0.9.0')).toBe(false);
    expect(satisfies('1.1.0-beta.2', '^1.1.0-beta.1')).toBe(true);
    expect(satisfies('1.2.0-beta.1', '^1.1.0-beta.1')).toBe(false);
    expect(satisfies('1.1.0', '^1.1.0-beta.1')).toBe(true);
  });

  it('orders a pre-release before its release, and pre-release numbers as numbers', () => {
    expect(compareVersions('1.0.0', '1.0.0-beta')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0-beta', '1.0.0')).toBeLessThan(0);
    expect(compareVersions('1.0.0-beta.10', '1.0.0-beta.2')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0-alpha', '1.0.0-beta')).toBeLessThan(0);
    expect(compareVersions('1.2.3', 'v1.2.3')).toBe(0);
    expect(compareVersions('1.10.0', '1.9.9')).toBeGreaterThan(0);
  });

  it('ignores build metadata when ordering', () => {
    expect(compareVersions('1.0.0+build.7', '1.0.0+build.1')).toBe(0);
  });
});

describe('isValidRange', () => {
  it.each(['^1.0.0', '~1.2', '>=1.0.0 <2.0.0', '>= 1.0.0', '1.x', '*', '^1.0.0 || ^2.0.0', '1.0.0 - 2.0.0', '^1.0.0-beta'])('accepts %j', (r) => expect(isValidRange(r)).toBe(true));
  it.each(['^one', 'latest', '>=1.0.0 banana', '1.0.0 -- 2'])('rejects %j', (r) => expect(isValidRange(r)).toBe(false));
});
