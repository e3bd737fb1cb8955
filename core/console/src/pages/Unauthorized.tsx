import { StatusPage } from './StatusPage.js';

export function Unauthorized() {
  return <StatusPage prefix="unauthorized" screen="screen.unauthorized" testId="page-401" />;
}
