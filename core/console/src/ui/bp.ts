/**
 * Blueprint class names for the pages on the login path. Those pages use plain elements with
 * Blueprint's CSS so the login page does not pull Blueprint's JavaScript (and with it every icon
 * path) into the first download; the shell and plugins load Blueprint as a split chunk.
 */
const NS = 'bp6';
export const bp = {
  card: `${NS}-card ${NS}-elevation-2`,
  formGroup: `${NS}-form-group`,
  label: `${NS}-label`,
  formContent: `${NS}-form-content`,
  inputGroup: `${NS}-input-group`,
  input: `${NS}-input`,
  button: `${NS}-button`,
  buttonText: `${NS}-button-text`,
  primary: `${NS}-intent-primary`,
  fill: `${NS}-fill`,
  minimal: `${NS}-minimal`,
  disabled: `${NS}-disabled`,
  loading: `${NS}-loading`,
  callout: `${NS}-callout`,
  danger: `${NS}-intent-danger`,
  warning: `${NS}-intent-warning`,
  nonIdeal: `${NS}-non-ideal-state`,
  heading: `${NS}-heading`,
  text: `${NS}-text-muted`,
} as const;

export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
