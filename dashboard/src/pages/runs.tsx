import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="runs">Not built yet.</Page>;
}
