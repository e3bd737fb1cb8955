// `@linguaport/sdk/testing`: what a plugin's own tests use. Runner-neutral: checks throw an Error that
// says what differs.
export { checkIdentityRoundTrip, checkTranslatedRoundTrip, randomText, seededRandom } from './formats.js';
