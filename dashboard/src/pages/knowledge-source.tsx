import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="knowledge-source">Not built yet.</Page>;
}
