/**
 * Semantic versions as npm reads them (npm's `semver` package), so a plugin's `sdk` range means here
 * what it means to npm: pre-releases match a range only when the range names a pre-release of the
 * same x.y.z, and 1.0.0-beta comes before 1.0.0. Only the functions used are imported: this module
 * is part of the console's host bundle.
 */
import semverCompare from 'semver/functions/compare.js';
import semverParse from 'semver/functions/parse.js';
import semverSatisfies from 'semver/functions/satisfies.js';
import validRange from 'semver/ranges/valid.js';

export type Version = [number, number, number];

/** `x.y.z` (an optional `v`, pre-release and build allowed) as its three numbers, or null when not a version. */
export function parseVersion(text: string): Version | null {
  const v = semverParse(text.trim());
  return v ? [v.major, v.minor, v.patch] : null;
}

/** Orders two versions as npm does (a pre-release before its release); both must be valid versions. */
export function compareVersions(a: string, b: string): number {
  return semverCompare(a.trim(), b.trim());
}

export function isValidRange(range: string): boolean {
  return validRange(range) !== null;
}

/** True when `version` satisfies `range`; an invalid version or range satisfies nothing. */
export function satisfies(version: string, range: string): boolean {
  return semverSatisfies(version.trim(), range);
}
