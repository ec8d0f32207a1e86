import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="session">Not built yet.</Page>;
}
