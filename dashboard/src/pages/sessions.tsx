import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="sessions">Not built yet.</Page>;
}
