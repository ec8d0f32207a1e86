import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="approvals">Not built yet.</Page>;
}
