import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="knowledge">Not built yet.</Page>;
}
