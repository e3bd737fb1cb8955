/** The running SDK version; a plugin's `sdk` range is checked against it before its code runs. */
export const SDK_VERSION = '1.0.0';
