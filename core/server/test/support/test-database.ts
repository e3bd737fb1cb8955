// One implementation, in the SDK's testing kit: the kernel's tests and plugins' tests open databases alike.
export { openTestDatabase, type TestDatabase } from '@linguaport/sdk/testing';
