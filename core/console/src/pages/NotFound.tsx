import { StatusPage } from './StatusPage.js';

export function NotFound() {
  return <StatusPage prefix="notFound" screen="screen.notFound" testId="page-404" />;
}
