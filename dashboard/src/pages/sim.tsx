import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="sim">Not built yet.</Page>;
}
