import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="compliance">Not built yet.</Page>;
}
